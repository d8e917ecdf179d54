package tmuxctl

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Arranging: selecting, laying out, resizing, moving and naming what
// exists. Caller strings reach tmux either as arguments tmux never expands
// (layouts, break-pane's -n) or escaped with literalFormat where tmux
// expands them as formats (rename-window, rename-session, select-pane -T);
// positional ones follow "--" so a leading '-' is never read as a flag.

// SelectWindow makes window w its session's current window.
func (c *Client) SelectWindow(ctx context.Context, w WindowID) error {
	_, err := c.command(ctx, "select-window", "-t", string(w))
	return err
}

// SelectPane makes pane p its window's active pane. A zoomed window stays
// zoomed (-Z), now showing p; without -Z tmux would unzoom it.
func (c *Client) SelectPane(ctx context.Context, p PaneID) error {
	_, err := c.command(ctx, "select-pane", "-Z", "-t", string(p))
	return err
}

// SelectLayout applies layout to window w as it is: callers outside this
// package use [Client.ApplyLayout], which checks it first.
func (c *Client) selectLayout(ctx context.Context, w WindowID, layout string) error {
	_, err := c.command(ctx, "select-layout", "-t", string(w), "--", layout)
	return err
}

// A Border is the side of a pane whose border [Client.ResizePane] moves.
type Border int

const (
	_ Border = iota
	BorderUp
	BorderDown
	BorderLeft
	BorderRight
)

// A Resize says how [Client.ResizePane] changes a pane: to a size (Width,
// Height; 0 leaves that dimension), or by moving a border (Border, Amount
// cells).
type Resize struct {
	Width, Height int
	Border        Border
	Amount        int
}

// ResizePane resizes pane p within its window (tmux unzooms the window).
func (c *Client) ResizePane(ctx context.Context, p PaneID, r Resize) error {
	argv := []string{"resize-pane", "-t", string(p)}
	if r.Width > 0 {
		argv = append(argv, "-x", strconv.Itoa(r.Width))
	}
	if r.Height > 0 {
		argv = append(argv, "-y", strconv.Itoa(r.Height))
	}
	if r.Border != 0 {
		flag, ok := map[Border]string{BorderUp: "-U", BorderDown: "-D", BorderLeft: "-L", BorderRight: "-R"}[r.Border]
		if !ok {
			return fmt.Errorf("resize border %d: want up, down, left or right", r.Border)
		}
		argv = append(argv, flag, strconv.Itoa(max(r.Amount, 1)))
	}
	_, err := c.command(ctx, argv...)
	return err
}

// ToggleZoom runs resize-pane -Z on pane p: a zoomed window unzooms (from
// any pane), an unzoomed one zooms p. Callers decide from the window's
// state whether a toggle reaches the state they want.
func (c *Client) ToggleZoom(ctx context.Context, p PaneID, times int) error {
	var cmds [][]string
	for range times {
		cmds = append(cmds, []string{"resize-pane", "-Z", "-t", string(p)})
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err := c.commands(ctx, cmds...)
	return err
}

// ResizeWindow sets window w's size; 0 leaves a dimension (both 0: nothing
// happens). tmux then keeps the window at that size (its window-size option
// becomes manual); no other window changes.
func (c *Client) ResizeWindow(ctx context.Context, w WindowID, width, height int) error {
	if width <= 0 && height <= 0 {
		return nil
	}
	argv := []string{"resize-window", "-t", string(w)}
	if width > 0 {
		argv = append(argv, "-x", strconv.Itoa(width))
	}
	if height > 0 {
		argv = append(argv, "-y", strconv.Itoa(height))
	}
	_, err := c.command(ctx, argv...)
	return err
}

// SwapPanes swaps panes a and b, in one window or across two, keeping
// each window's active pane (-d) and zoom (-Z).
func (c *Client) SwapPanes(ctx context.Context, a, b PaneID) error {
	_, err := c.command(ctx, "swap-pane", "-d", "-Z", "-s", string(a), "-t", string(b))
	return err
}

// MoveWindow moves window w to session s, at index (or the next free index
// when index is nil), without making it current.
func (c *Client) MoveWindow(ctx context.Context, w WindowID, s SessionID, index *int) error {
	target := string(s) + ":"
	if index != nil {
		target += strconv.Itoa(*index)
	}
	_, err := c.command(ctx, "move-window", "-d", "-s", string(w), "-t", target)
	return err
}

// JoinPane moves pane p into the window of target, splitting target in
// direction; percent (0: half) sizes the moved pane. Focus stays put.
func (c *Client) JoinPane(ctx context.Context, p, target PaneID, dir Direction, percent int) error {
	argv := []string{"join-pane", "-d", "-s", string(p), "-t", string(target)}
	switch dir {
	case Right:
		argv = append(argv, "-h")
	case Left:
		argv = append(argv, "-h", "-b")
	case Above:
		argv = append(argv, "-v", "-b")
	case Below, "":
		argv = append(argv, "-v")
	default:
		return fmt.Errorf("join direction %q: want below, right, above or left", dir)
	}
	if percent > 0 {
		argv = append(argv, "-l", strconv.Itoa(percent)+"%")
	}
	_, err := c.command(ctx, argv...)
	return err
}

// BreakPane moves pane p out of its window into a new window of session s
// (at its next free index), named name when given (break-pane takes -n
// as it is, no format expansion). The new window becomes current only if
// selected.
func (c *Client) BreakPane(ctx context.Context, p PaneID, s SessionID, name string, selected bool) (Created, error) {
	spec, fieldSep, rowSep := createdFormat.layout()
	argv := []string{"break-pane", "-P", "-F", spec, "-s", string(p), "-t", string(s) + ":"}
	if !selected {
		argv = append(argv, "-d")
	}
	if name != "" {
		argv = append(argv, "-n", name)
	}
	out, err := c.command(ctx, argv...)
	if err != nil {
		return Created{}, err
	}
	rows, err := c.parsePrinted(ctx, createdFormat, out, fieldSep, rowSep)
	if err != nil {
		return Created{}, err
	}
	if len(rows) != 1 {
		return Created{}, fmt.Errorf("break-pane: printed %d rows, want 1", len(rows))
	}
	r := rows[0]
	return Created{
		Pane:        PaneID(r["pane_id"]),
		Window:      WindowID(r["window_id"]),
		WindowIndex: atoi(r["window_index"]),
		Session:     SessionID(r["session_id"]),
		SessionName: r["session_name"],
		PID:         atoi(r["pane_pid"]),
	}, nil
}

// RenameSession renames session s to exactly name.
func (c *Client) RenameSession(ctx context.Context, s SessionID, name string) error {
	_, err := c.command(ctx, "rename-session", "-t", string(s), "--", literalFormat(name))
	return err
}

// RenameWindow renames window w to exactly name; tmux then stops renaming
// it after its program (automatic-rename off for that window).
func (c *Client) RenameWindow(ctx context.Context, w WindowID, name string) error {
	_, err := c.command(ctx, "rename-window", "-t", string(w), "--", literalFormat(name))
	return err
}

// SetPaneTitle sets pane p's title to exactly title. select-pane -T changes
// nothing else (not the active pane).
func (c *Client) SetPaneTitle(ctx context.Context, p PaneID, title string) error {
	_, err := c.command(ctx, "select-pane", "-t", string(p), "-T", literalFormat(title))
	return err
}

// RespawnPane ends pane p's program, if it runs (-k), and starts spawn's
// in the same pane, whose id stays. With no Argv it runs the shell that
// tmux gives new panes (default-shell), as a login shell.
func (c *Client) RespawnPane(ctx context.Context, p PaneID, spawn Spawn) error {
	if err := spawn.check("the pane was left as it was"); err != nil {
		return err
	}
	if len(spawn.Argv) == 0 {
		// respawn-pane with no command would run the pane's own first
		// command again, not the shell.
		out, err := c.command(ctx, "display-message", "-p", "-t", string(p), "#{default-shell}")
		if err != nil {
			return err
		}
		shell := strings.TrimSuffix(out, "\n")
		if shell == "" {
			shell = "/bin/sh"
		}
		spawn.Argv = []string{shell, "-l"}
	}
	argv := append([]string{"respawn-pane", "-k", "-t", string(p)}, spawn.args()...)
	var err error
	if len(spawn.Env) > 0 {
		_, err = c.sourced(ctx, argv) // values stay out of the process list
	} else {
		_, err = c.command(ctx, argv...)
	}
	return err
}

// ClearPane clears pane p's screen as a terminal reset does (send-keys
// -R: the screen's lines move into the scrollback, the cursor goes home),
// then, when history is set, deletes the scrollback (clear-history).
func (c *Client) ClearPane(ctx context.Context, p PaneID, history bool) error {
	cmds := [][]string{{"send-keys", "-R", "-t", string(p)}}
	if history {
		cmds = append(cmds, []string{"clear-history", "-t", string(p)})
	}
	_, err := c.commands(ctx, cmds...)
	return err
}
