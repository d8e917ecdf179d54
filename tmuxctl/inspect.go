package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A PaneDetail is a pane with what get_pane_info and snapshot_pane add to
// a list-panes row: where it sits, its cursor, its mode and its scrollback.
type PaneDetail struct {
	Pane
	WindowName      string
	Left, Top       int  // its top-left cell in the window
	CursorX         int  // cursor column
	CursorY         int  // cursor row, 0 at the top of the screen
	AlternateScreen bool // a full-screen program switched to the alternate screen
	Mode            string
	ScrollPosition  *int // lines scrolled back in copy mode; nil outside it
	HistoryLimit    int
}

// detailFormat reads a PaneDetail: paneFormat (which has the window's
// name and the pane's position) and the rest. scroll_position is set only
// while the pane is in copy mode; elsewhere it expands to nothing.
var detailFormat = slices.Concat(paneFormat, format{
	"cursor_x", "cursor_y", "alternate_on", "pane_mode", "scroll_position", "history_limit"})

func detailFrom(r map[string]string) PaneDetail {
	d := PaneDetail{
		Pane:            paneFrom(r),
		WindowName:      r["window_name"],
		Left:            atoi(r["pane_left"]),
		Top:             atoi(r["pane_top"]),
		CursorX:         atoi(r["cursor_x"]),
		CursorY:         atoi(r["cursor_y"]),
		AlternateScreen: r["alternate_on"] == "1",
		Mode:            r["pane_mode"],
		HistoryLimit:    atoi(r["history_limit"]),
	}
	if n, err := strconv.Atoi(r["scroll_position"]); err == nil {
		d.ScrollPosition = &n
	}
	return d
}

// paneRead prints spec for pane p alone: display-message, not list-panes
// -t with a filter, whose filter cost tmux as much as a dozen fields. Its
// -t may fail quietly (tmux prints spec for no pane at all), so a caller
// checks the pane_id printed (see [onePane]). The spec holds no "%":
// display-message passes it through strftime.
func paneRead(p PaneID, spec string) []string {
	return []string{"display-message", "-p", "-t", string(p), spec}
}

// onePane is the row of pane p among rows read with paneRead, or a
// NotFoundError.
func onePane(p PaneID, rows []map[string]string) (map[string]string, error) {
	if len(rows) != 1 || rows[0]["pane_id"] != string(p) {
		return nil, &NotFoundError{Kind: "pane", ID: string(p)}
	}
	return rows[0], nil
}

// PaneDetail returns pane p with its position, cursor, mode and scrollback.
func (c *Client) PaneDetail(ctx context.Context, p PaneID) (PaneDetail, error) {
	spec, fieldSep, rowSep := detailFormat.layout()
	out, err := c.command(ctx, paneRead(p, spec)...)
	if err != nil {
		return PaneDetail{}, err
	}
	rows, err := c.parsePrinted(ctx, detailFormat, out, fieldSep, rowSep)
	if err != nil {
		return PaneDetail{}, err
	}
	row, err := onePane(p, rows)
	if err != nil {
		return PaneDetail{}, err
	}
	return c.reaped(ctx, detailFrom(row))
}

// WindowPanes returns the panes of window w with their positions.
func (c *Client) WindowPanes(ctx context.Context, w WindowID) ([]PaneDetail, error) {
	rows, err := c.list(ctx, detailFormat, "list-panes", "-t", string(w))
	if err != nil {
		return nil, err
	}
	out := make([]PaneDetail, len(rows))
	for i, r := range rows {
		if out[i], err = c.reaped(ctx, detailFrom(r)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// reaped fills in the exit status of a dead pane tmux has not reaped yet,
// the way [Client.Pane] does.
func (c *Client) reaped(ctx context.Context, d PaneDetail) (PaneDetail, error) {
	if !d.Unreaped() {
		return d, nil
	}
	p, err := c.Pane(ctx, d.ID)
	if err != nil {
		return PaneDetail{}, err
	}
	d.ExitStatus, d.ExitSignal = p.ExitStatus, p.ExitSignal
	return d, nil
}

// A Snapshot is a pane's state and its screen, read by one tmux client
// in one command list, so that both describe the same moment.
type Snapshot struct {
	PaneDetail
	Lines []string // the visible screen, one string per row
}

// Snapshot reads pane p's state and visible screen together.
func (c *Client) Snapshot(ctx context.Context, p PaneID, escapes bool) (Snapshot, error) {
	spec, fieldSep, rowSep := detailFormat.layout()
	capture := []string{"capture-pane", "-p", "-t", string(p)}
	if escapes {
		capture = append(capture, "-e")
	}
	// A missing pane prints an empty row and fails capture-pane, which
	// fails the command list.
	out, err := c.commands(ctx, paneRead(p, spec), capture)
	if err != nil {
		return Snapshot{}, err
	}
	row, screen, ok := strings.Cut(out, rowSep)
	if !ok {
		return Snapshot{}, &NotFoundError{Kind: "pane", ID: string(p)}
	}
	rows, err := c.parsePrinted(ctx, detailFormat, row+rowSep, fieldSep, rowSep)
	if err != nil {
		return Snapshot{}, err
	}
	r, err := onePane(p, rows)
	if err != nil {
		return Snapshot{}, err
	}
	d, err := c.reaped(ctx, detailFrom(r))
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{PaneDetail: d}
	if screen = strings.TrimSuffix(screen, "\n"); screen != "" {
		s.Lines = strings.Split(screen, "\n")
	}
	return s, nil
}

// ServerInfo describes the tmux server itself.
type ServerInfo struct {
	Version    string // as the server prints it, e.g. "3.5a"
	SocketPath string
	PID        int
	Sessions   int
	Windows    int
	Panes      int
}

var (
	serverFormat = format{"version", "socket_path", "pid"}
	idsFormat    = format{"session_id", "window_id", "pane_id"}
)

// ServerInfo asks the running server for its version, socket and process
// id, and counts its sessions, windows and panes. The version is the
// server's own: it can differ from the tmux binary's when a server started
// by an older tmux is still running.
func (c *Client) ServerInfo(ctx context.Context) (ServerInfo, error) {
	spec, fieldSep, rowSep := serverFormat.layout()
	out, err := c.command(ctx, "display-message", "-p", spec)
	if err != nil {
		return ServerInfo{}, err
	}
	rows, err := c.parsePrinted(ctx, serverFormat, out, fieldSep, rowSep)
	if err != nil {
		return ServerInfo{}, err
	}
	if len(rows) != 1 {
		return ServerInfo{}, fmt.Errorf("display-message printed %d rows of server information, want 1", len(rows))
	}
	info := ServerInfo{Version: rows[0]["version"], SocketPath: rows[0]["socket_path"], PID: atoi(rows[0]["pid"])}
	ids, err := c.list(ctx, idsFormat, "list-panes", "-a")
	var ce *CommandError
	if errors.As(err, &ce) && strings.Contains(ce.Message, "no current target") {
		// A server kept running without sessions (exit-empty off).
		return info, nil
	}
	if err != nil {
		return ServerInfo{}, err
	}
	// A window linked into several sessions is listed once per session:
	// count distinct ids.
	sessions, windows, panes := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range ids {
		sessions[r["session_id"]] = true
		windows[r["window_id"]] = true
		panes[r["pane_id"]] = true
	}
	info.Sessions, info.Windows, info.Panes = len(sessions), len(windows), len(panes)
	return info, nil
}
