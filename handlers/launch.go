package handlers

import (
	"context"
	"errors"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/waiting"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

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
// and what is removed then.
func (h *Handlers) launch(ctx context.Context, spawn tmuxctl.Spawn, kind string, create func(context.Context, tmuxctl.Spawn) (tmuxctl.Created, error)) (launched, error) {
	nonce := tmuxctl.Nonce(12)
	created, start, err := h.tmux.CreateGated(ctx, spawn, nonce, create)
	if err != nil {
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
		return launched{}, h.explain(ctx, err)
	}
	out := launched{created: created}
	s, err := h.hub.Watch(ctx, created.Pane)
	switch {
	case err == nil:
		cursor := s.Cursor(0)
		out.cursor = &cursor
	case waiting.NoStream(err):
		note(ctx, "cursor is null: the output of pane %s cannot be watched (%v)", created.Pane, err)
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
	release, err := h.exits.HoldBriefly(ctx, created.Pane)
	if err != nil {
		return abandon(err)
	}
	defer release()
	if err := start(ctx); err != nil {
		return abandon(err)
	}
	e, exited := h.exitedAtOnce(ctx, s, created.Pane, nonce)
	if !exited {
		return out, nil
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
	return launched{}, startFailure(spawn.Argv[0], kind, e, said)
}

// exitedAtOnce waits for the program in pane to be exec'd (the marker
// with nonce in s) and then the start grace more, and reports its exit if it
// ended meanwhile.
func (h *Handlers) exitedAtOnce(ctx context.Context, s *live.Stream, pane tmuxctl.PaneID, nonce string) (live.Exit, bool) {
	wctx, cancel := h.waitContext(ctx, markerWait)
	type result struct {
		e   live.Exit
		err error
	}
	ended := make(chan result, 1)
	var exitCheck sync.WaitGroup
	exitCheck.Go(func() {
		e, err := h.exits.Wait(wctx, pane)
		ended <- result{e, err}
	})
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

// startFailure words a program that could not start, as the shell saw it.
func startFailure(program, kind string, e live.Exit, said string) error {
	how := "it ended at once"
	switch {
	case e.Signal != nil:
		how = "it was killed at once by " + *e.Signal
	case e.Status != nil && *e.Status == 127:
		how = "exit status 127: not found"
	case e.Status != nil && *e.Status == 126:
		how = "exit status 126: found but could not be run"
	case e.Status != nil:
		how = "it exited at once with status " + strconv.Itoa(*e.Status)
	}
	msg := fmt.Sprintf("argv[0] %s did not start (%s); the %s made for it was removed", strconv.Quote(program), how, kind)
	if said != "" {
		const most = 2000
		if len(said) > most {
			said = "…" + said[len(said)-most:]
		}
		msg += ". It printed: " + said
	}
	return errors.New(msg)
}
