// This file holds the tools of the catalogue family Finding your way:
// sessions, windows, panes (list_sessions, list_windows, list_panes).

package handlers

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// ListSessions returns every session of the server, marking the one this
// server runs in.
func (h *Handlers) ListSessions(ctx context.Context, _ gen.ListSessionsInput) (gen.ListSessionsOutput, error) {
	sessions, err := h.tmux.ListSessions(ctx)
	if err != nil {
		return gen.ListSessionsOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	out := gen.ListSessionsOutput{Sessions: make([]gen.SessionView, len(sessions))}
	for i, s := range sessions {
		out.Sessions[i] = gen.SessionView{
			SessionID:       string(s.ID),
			SessionName:     s.Name,
			Windows:         s.Windows,
			AttachedClients: s.AttachedClients,
			CreatedUnix:     int(s.CreatedUnix),
			Width:           s.Width,
			Height:          s.Height,
			Own:             own.ok && own.pane.SessionID == s.ID,
		}
	}
	return out, nil
}

// ListWindows returns the windows of one session, or of all.
func (h *Handlers) ListWindows(ctx context.Context, in gen.ListWindowsInput) (gen.ListWindowsOutput, error) {
	session, err := h.sessionNamed(ctx, in.SessionID, in.SessionName)
	if err != nil {
		return gen.ListWindowsOutput{}, err
	}
	windows, err := h.tmux.ListWindows(ctx, session)
	if err != nil {
		return gen.ListWindowsOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	out := gen.ListWindowsOutput{Windows: make([]gen.WindowView, len(windows))}
	for i, w := range windows {
		out.Windows[i] = gen.WindowView{
			WindowID:    string(w.ID),
			SessionID:   string(w.SessionID),
			SessionName: w.SessionName,
			Index:       w.Index,
			WindowName:  w.Name,
			Active:      w.Active,
			Width:       w.Width,
			Height:      w.Height,
			Panes:       w.Panes,
			Layout:      w.Layout,
			Zoomed:      w.Zoomed,
			Own:         own.ok && own.pane.WindowID == w.ID,
		}
	}
	return out, nil
}

// ListPanes returns the panes of a window, a session, or the whole server.
func (h *Handlers) ListPanes(ctx context.Context, in gen.ListPanesInput) (gen.ListPanesOutput, error) {
	session, err := h.sessionNamed(ctx, in.SessionID, in.SessionName)
	if err != nil {
		return gen.ListPanesOutput{}, err
	}
	window, err := h.windowNamed(ctx, session, in.WindowID, in.WindowName)
	if err != nil {
		return gen.ListPanesOutput{}, err
	}
	panes, err := askWhileCwdUnknown(ctx, func() ([]tmuxctl.Pane, error) {
		return h.tmux.ListPanes(ctx, tmuxctl.PaneScope{Session: session, Window: window})
	}, func(panes []tmuxctl.Pane) bool { return slices.ContainsFunc(panes, h.cwdUnknown) })
	if err != nil {
		return gen.ListPanesOutput{}, h.explain(ctx, err)
	}
	own, inTmux := h.tmux.Self() // a listed pane's id says whether it is ours
	out := gen.ListPanesOutput{Panes: make([]gen.PaneView, len(panes))}
	activities := h.panesActivity(ctx, panes)
	for i, p := range panes {
		activity, last := activities[i].activity, activities[i].lastStatus
		out.Panes[i] = gen.PaneView{
			Activity:       activityOf[gen.ListPanesOutputPanesElemActivity](activity),
			LastExitStatus: last,
			PaneID:         string(p.ID),
			SessionID:      string(p.SessionID),
			SessionName:    p.SessionName,
			WindowID:       string(p.WindowID),
			WindowIndex:    p.WindowIndex,
			WindowName:     p.WindowName,
			Left:           p.Left,
			Top:            p.Top,
			Index:          p.Index,
			Active:         p.Active,
			Width:          p.Width,
			Height:         p.Height,
			Title:          p.Title,
			Command:        p.Command,
			Pid:            p.PID,
			Cwd:            p.Cwd,
			Dead:           p.Dead,
			ExitStatus:     p.ExitStatus,
			ExitSignal:     p.ExitSignal,
			InMode:         p.InMode,
			Own:            inTmux && own == p.ID,
		}
	}
	return out, nil
}

// ownPane is where this server runs, when it runs in a pane of the server
// it drives.
type ownPane struct {
	pane tmuxctl.Pane
	ok   bool
}

func (h *Handlers) self(ctx context.Context) ownPane {
	id, ok := h.tmux.Self()
	if !ok {
		return ownPane{}
	}
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return ownPane{}
	}
	return ownPane{pane: p, ok: true}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// sessionNamed turns the sessionId or sessionName a list call was given
// into a session id ("" when neither was given). An unknown name is an
// error naming the sessions that exist.
func (h *Handlers) sessionNamed(ctx context.Context, id, name *string) (tmuxctl.SessionID, error) {
	switch {
	case id != nil && name != nil:
		return "", wording.NotBoth("sessionId", "sessionName")
	case id != nil:
		return tmuxctl.SessionID(*id), nil
	case name == nil:
		return "", nil
	}
	s, err := h.tmux.SessionNamed(ctx, *name)
	var nf *tmuxctl.NotFoundError
	if errors.As(err, &nf) {
		sessions, _ := h.tmux.ListSessions(ctx)
		return "", wording.NoSessionNamed(*name, sessions)
	}
	if err != nil {
		return "", h.explain(ctx, err)
	}
	return s.ID, nil
}

// windowNamed turns the windowId or windowName a list call was given into
// a window id ("" when neither was given), looking for the name in session
// when one was given and on the whole server otherwise. A name no window
// or several windows have is an error listing the candidates.
func (h *Handlers) windowNamed(ctx context.Context, session tmuxctl.SessionID, id, name *string) (tmuxctl.WindowID, error) {
	switch {
	case id != nil && name != nil:
		return "", wording.NotBoth("windowId", "windowName")
	case id != nil:
		return tmuxctl.WindowID(*id), nil
	case name == nil:
		return "", nil
	}
	windows, err := h.tmux.ListWindows(ctx, session)
	if err != nil {
		return "", h.explain(ctx, err)
	}
	var matches []tmuxctl.Window
	for _, w := range windows {
		if w.Name == *name {
			matches = append(matches, w)
		}
	}
	where := "on the server"
	if session != "" {
		where = "in session " + string(session)
	}
	switch len(matches) {
	case 1:
		return matches[0].ID, nil
	case 0:
		return "", wording.NoWindowNamed(*name, where, windows)
	}
	return "", wording.AmbiguousWindowName(*name, where, matches)
}

// tmux reads a pane's cwd from /proc for the pane's foreground process
// group, or its session leader. The process tmux forks for a pane just
// made or respawned has the server's name and directory until it execs,
// and tmux may answer an empty pane_current_path for it around then. A
// listing asks again, a few times and briefly, while a live pane's
// process still has the server's name, or its cwd is empty and it started
// under a second ago: tmux never knows the cwd of a pane whose foreground
// process is another user's (sudo), and such a listing must not slow down.
const (
	cwdAsks  = 20
	cwdPause = 10 * time.Millisecond
	cwdYoung = time.Second
)

func (h *Handlers) cwdUnknown(p tmuxctl.Pane) bool {
	if p.Dead || p.PID <= 0 {
		return false
	}
	return p.Cwd == "" && proc.StartedWithin(p.PID, cwdYoung) || h.execs.stillForked(p)
}

// execSeen remembers the pane processes seen to have exec'd: such a
// process never has the server's name again (it could only by exec'ing a
// tmux), so a listing need not read /proc for it (two files) on every
// call. A pane's id is never reused within a server, and its process
// changes only with a respawn, which the key's pid tells apart.
type execSeen struct {
	mu    sync.Mutex
	execd map[paneProcess]bool
}

type paneProcess struct {
	serverPID int
	pane      tmuxctl.PaneID
	pid       int
}

// execSeenMax bounds the memory: past it, the record starts again.
const execSeenMax = 4096

// stillForked reports whether p's process still has its server's name:
// forked for the pane and not exec'd yet.
func (e *execSeen) stillForked(p tmuxctl.Pane) bool {
	key := paneProcess{p.ServerPID, p.ID, p.PID}
	e.mu.Lock()
	execd := e.execd[key]
	e.mu.Unlock()
	if execd {
		return false
	}
	if proc.SameName(p.PID, p.ServerPID) {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.execd == nil || len(e.execd) >= execSeenMax {
		e.execd = map[paneProcess]bool{}
	}
	e.execd[key] = true
	return false
}

// askWhileCwdUnknown runs list, again while unknown says a live pane's
// cwd is not known yet (cwdAsks times at most), and returns its last
// answer.
func askWhileCwdUnknown[T any](ctx context.Context, list func() (T, error), unknown func(T) bool) (T, error) {
	got, err := list()
	for ask := 1; ask < cwdAsks && err == nil && unknown(got); ask++ {
		select {
		case <-ctx.Done():
			return got, nil
		case <-time.After(cwdPause):
		}
		got, err = list()
	}
	return got, err
}
