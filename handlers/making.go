// This file holds the tools of the catalogue family Making and removing
// panes (create_session, create_window, split_window, kill_pane,
// kill_window, kill_session).

package handlers

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// CreateSession starts a detached session (and the tmux server, if none
// runs) and returns the ids of what it made, with a cursor before the
// pane's first byte.
func (h *Handlers) CreateSession(ctx context.Context, in gen.CreateSessionInput) (gen.CreateSessionOutput, error) {
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	l, err := h.launch(ctx, "", spawn, "session", func(ctx context.Context, s tmuxctl.Spawn) (tmuxctl.Created, error) {
		c, err := h.tmux.NewSession(ctx, tmuxctl.NewSessionOptions{
			Name:       deref(in.Name),
			WindowName: deref(in.WindowName),
			Width:      deref(in.Width),
			Height:     deref(in.Height),
			Spawn:      s,
		})
		if errors.Is(err, tmuxctl.ErrNameTaken) {
			err = wording.NameTaken("name", "session", deref(in.Name))
		}
		return c, err
	})
	if err != nil {
		return gen.CreateSessionOutput{}, err
	}
	c := l.created
	return gen.CreateSessionOutput{
		SessionID:   string(c.Session),
		SessionName: c.SessionName,
		WindowID:    string(c.Window),
		PaneID:      string(c.Pane),
		Pid:         c.PID,
		Cursor:      l.cursor,
	}, nil
}

// CreateWindow adds a window to a session, sized as asked.
func (h *Handlers) CreateWindow(ctx context.Context, in gen.CreateWindowInput) (gen.CreateWindowOutput, error) {
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	l, err := h.launch(ctx, tmuxctl.SessionID(in.SessionID), spawn, "window", func(ctx context.Context, s tmuxctl.Spawn) (tmuxctl.Created, error) {
		return h.tmux.NewWindow(ctx, tmuxctl.SessionID(in.SessionID), tmuxctl.NewWindowOptions{
			Name:   deref(in.Name),
			Select: in.Select,
			Width:  deref(in.Width),
			Height: deref(in.Height),
			Spawn:  s,
		})
	})
	if err != nil {
		return gen.CreateWindowOutput{}, err
	}
	c := l.created
	return gen.CreateWindowOutput{
		SessionID:   string(c.Session),
		WindowID:    string(c.Window),
		WindowIndex: c.WindowIndex,
		PaneID:      string(c.Pane),
		Pid:         c.PID,
		Cursor:      l.cursor,
	}, nil
}

// SplitWindow splits a pane and returns the new pane's ids. A width or
// height sizes the new pane along the split; the window keeps its size.
func (h *Handlers) SplitWindow(ctx context.Context, in gen.SplitWindowInput) (gen.SplitWindowOutput, error) {
	dir := splitDirection(in.Direction)
	cells, err := splitCells(dir, in.Percent, in.Width, in.Height)
	if err != nil {
		return gen.SplitWindowOutput{}, err
	}
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	// The new pane gets the environment of the split pane's session, which
	// tmux finds from the pane id itself (a pane id is a session target).
	session := tmuxctl.SessionID(in.PaneID)
	l, err := h.launch(ctx, session, spawn, "pane", func(ctx context.Context, s tmuxctl.Spawn) (tmuxctl.Created, error) {
		return h.tmux.Split(ctx, tmuxctl.PaneID(in.PaneID), tmuxctl.SplitOptions{
			Direction: dir,
			Percent:   deref(in.Percent),
			Cells:     cells,
			Select:    in.Select,
			Spawn:     s,
		})
	})
	if err != nil {
		return gen.SplitWindowOutput{}, err
	}
	c := l.created
	return gen.SplitWindowOutput{
		SessionID: string(c.Session),
		WindowID:  string(c.Window),
		PaneID:    string(c.Pane),
		Pid:       c.PID,
		Cursor:    l.cursor,
	}, nil
}

// splitCells checks a split's size arguments and returns its size in
// cells along the split (0: percent or half). A split can only size the
// new pane along its direction: across it, the pane spans the split one.
func splitCells(dir tmuxctl.Direction, percent, width, height *int) (int, error) {
	if percent != nil && (width != nil || height != nil) {
		return 0, wording.NotBoth("percent", "width/height")
	}
	across := dir == tmuxctl.Right || dir == tmuxctl.Left
	switch {
	case across && height != nil:
		return 0, wording.SplitSizeAcross("height", dir, "width (columns)", "below/above")
	case !across && width != nil:
		return 0, wording.SplitSizeAcross("width", dir, "height (rows)", "right/left")
	case across:
		return deref(width), nil
	}
	return deref(height), nil
}

// How long a create call looks for a program that cannot start: the
// gating shell says when it execs a program it found (markerWait bounds
// the wait for that on a slow machine), and a program that then exits
// within the start grace (Limits.StartGrace) is taken to have failed at once.
const markerWait = 5 * time.Second

// launched is what create_session, create_window and split_window made.
type launched struct {
	created tmuxctl.Created
	cursor  *string // before the pane's first byte; nil when it cannot be watched
}

// launch makes a pane with create for spawn, gated: the program starts
// only once the pane's output is watched, so the cursor it returns is
// before the program's first byte. For an argv it also makes sure the
// program started: one not found, not executable, or exiting at once is
// an error with its exit status and what it printed, and what create made
// is removed. kind ("session", "window" or "pane") is what create makes,
// and what is removed then. in is the session whose environment the pane
// gets ("" for a new session), where the program is looked for first.
func (h *Handlers) launch(ctx context.Context, in tmuxctl.SessionID, spawn tmuxctl.Spawn, kind string, create func(context.Context, tmuxctl.Spawn) (tmuxctl.Created, error)) (launched, error) {
	nonce := tmuxctl.Nonce(12)
	if len(spawn.Argv) == 0 && !h.limits.NoMarks {
		// A pane that fails to get its marks still gets its shell.
		spawn.ShellMarks, _ = h.marks.Install()
	}
	pre := h.hub.AskAhead(ctx) // the pane's host stream, asked for as tmux makes the pane
	created, start, err := h.tmux.CreateGated(ctx, in, spawn, nonce, create)
	if err != nil {
		pre.Drop()
		return launched{}, h.explain(ctx, err)
	}
	remove := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		switch kind {
		case "session":
			h.tmux.KillSession(cctx, created.Session)
		case "window":
			h.tmux.KillWindow(cctx, created.Window)
		default:
			h.tmux.KillPane(cctx, created.Pane)
		}
	}
	abandon := func(err error) (launched, error) {
		remove()
		giveUp(start)
		return launched{}, h.explain(ctx, err)
	}
	out := launched{created: created}
	s, err := h.hub.WatchNew(ctx, created.Pane, pre)
	switch {
	case err == nil:
		cursor := s.Cursor(0)
		out.cursor = &cursor
	case waiting.NoStream(err):
		note(ctx, wording.NoteUnwatchable(string(created.Pane), err))
		s = nil
	default:
		return abandon(err)
	}
	if len(spawn.Argv) == 0 {
		// tmux's own default: nothing to check beyond what tmux checks.
		if err := start(ctx); err != nil {
			return abandon(err)
		}
		return out, nil
	}
	release, err := h.exits.HoldNewBriefly(ctx, created.Pane, created.PID)
	if err != nil {
		return abandon(err)
	}
	defer release()
	died := h.exits.Died(created.Pane) // before the program can start
	if s != nil {
		s.AwaitRelay(ctx) // what a program that fails at once says is read
	}
	if err := start(ctx); err != nil {
		return abandon(err)
	}
	e, exited := h.exitedAtOnce(ctx, s, created.Pane, nonce, died)
	if !exited {
		// The hold ends with one look at the pane: a death no one
		// reported (tmux had not noticed it yet) is read there.
		release()
		if e, exited = h.exits.Ended(created.Pane, created.PID); !exited {
			return out, nil
		}
	}
	said := ""
	if s != nil {
		waiting.SyncDeath(ctx, h.hub, s)
		if chunk, err := s.Read(0); err == nil {
			said = strings.TrimSpace(string(chunk.Text))
		}
	}
	release()
	remove()
	return launched{}, wording.NotStarted(spawn.Argv[0], kind, e.Status, e.Signal, said)
}

// giveUp abandons a gate whose start was not, or not fully, done: start
// with an ended context gives its FIFO up.
func giveUp(start func(context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start(ctx)
}

// exitedAtOnce waits for the program in pane to be exec'd (the marker
// with nonce in s) and then the start grace more, and reports its exit if it
// ended meanwhile. died is closed when the pane's death is reported: only
// then is its exit read here (the hold's end looks at the pane anyway).
func (h *Handlers) exitedAtOnce(ctx context.Context, s *live.Stream, pane tmuxctl.PaneID, nonce string, died <-chan struct{}) (live.Exit, bool) {
	wctx, cancel := h.waitContext(ctx, markerWait)
	type result struct {
		e   live.Exit
		err error
	}
	ended := make(chan result, 1)
	var exitCheck sync.WaitGroup
	// The exit check ends with wctx: it is over before this call answers.
	defer exitCheck.Wait()
	defer cancel()
	// The grace starts at the exec marker; without a stream there is no
	// marker to wait for, so it starts now.
	var graceEnds <-chan time.Time
	if s == nil {
		graceEnds = time.After(h.limits.StartGrace)
	}
	for {
		var changed <-chan struct{}
		if graceEnds == nil {
			changed = s.Changed()
			if _, ok := s.FindMarker(nonce, frame.Exec); ok {
				graceEnds = time.After(h.limits.StartGrace)
				changed = nil
			}
		}
		select {
		case <-died:
			died = nil
			exitCheck.Go(func() {
				e, err := h.exits.Wait(wctx, pane)
				ended <- result{e, err}
			})
		case r := <-ended:
			if r.err != nil {
				return live.Exit{}, errors.Is(r.err, live.ErrPaneGone)
			}
			return r.e, true
		case <-changed:
		case <-graceEnds:
			return live.Exit{}, false
		case <-wctx.Done():
			return live.Exit{}, false
		}
	}
}

// KillSession kills a session, unless this server runs inside it and force
// is not set.
func (h *Handlers) KillSession(ctx context.Context, in gen.KillSessionInput) (gen.KillSessionOutput, error) {
	id := tmuxctl.SessionID(in.SessionID)
	s, err := h.tmux.Session(ctx, id)
	if err != nil {
		return gen.KillSessionOutput{}, h.explain(ctx, err)
	}
	if own := h.self(ctx); own.ok && own.pane.SessionID == id && !in.Force {
		return gen.KillSessionOutput{}, wording.OwnHolder("session "+string(id), own.pane.ID, "kill it (that would stop this server)")
	}
	panes, err := h.tmux.ListPanes(ctx, tmuxctl.PaneScope{Session: id})
	if err != nil {
		return gen.KillSessionOutput{}, h.explain(ctx, err)
	}
	if err := h.tmux.KillSession(ctx, id); err != nil {
		return gen.KillSessionOutput{}, h.explain(ctx, err)
	}
	return gen.KillSessionOutput{SessionID: string(id), SessionName: s.Name, PaneIds: paneIDs(panes)}, nil
}

// KillWindow kills a window, unless this server runs inside it and force is
// not set.
func (h *Handlers) KillWindow(ctx context.Context, in gen.KillWindowInput) (gen.KillWindowOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	if own := h.self(ctx); own.ok && own.pane.WindowID == id && !in.Force {
		return gen.KillWindowOutput{}, wording.OwnHolder("window "+string(id), own.pane.ID, "kill it (that would stop this server)")
	}
	panes, err := h.tmux.ListPanes(ctx, tmuxctl.PaneScope{Window: id})
	if err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	s, err := h.tmux.Session(ctx, w.SessionID)
	if err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	if err := h.tmux.KillWindow(ctx, id); err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	return gen.KillWindowOutput{
		WindowID:      string(id),
		SessionID:     string(w.SessionID),
		PaneIds:       paneIDs(panes),
		SessionClosed: s.Windows == 1,
	}, nil
}

// KillPane kills a pane, unless it is this server's own and force is not set.
func (h *Handlers) KillPane(ctx context.Context, in gen.KillPaneInput) (gen.KillPaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.KillPaneOutput{}, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, in.Force, "kill"); err != nil {
		return gen.KillPaneOutput{}, err
	}
	w, err := h.tmux.Window(ctx, p.WindowID)
	if err != nil {
		return gen.KillPaneOutput{}, h.explain(ctx, err)
	}
	if err := h.tmux.KillPane(ctx, id); err != nil {
		return gen.KillPaneOutput{}, h.explain(ctx, err)
	}
	return gen.KillPaneOutput{PaneID: string(id), WindowID: string(p.WindowID), WindowClosed: w.Panes == 1}, nil
}

func paneIDs(panes []tmuxctl.Pane) []string {
	ids := make([]string, len(panes))
	for i, p := range panes {
		ids[i] = string(p.ID)
	}
	return ids
}
