// This file says what a pane is doing, for get_pane_info and list_panes:
// whether the pane is dead, and what the shell marks (OSC 133) say, as its
// stream read them or as tmux 3.8 read them itself.

package handlers

import (
	"context"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// paneActivityNow is paneActivity for one pane, with the input engine's
// look when its shell says a command runs: "awaiting_input" when that
// command waits for input. The look costs a tmux round trip and /proc
// reads, and 50 ms more when the first look says waiting; only panes
// whose shell marked a command that still runs pay it.
func (h *Handlers) paneActivityNow(ctx context.Context, p tmuxctl.Pane) (activity string, lastStatus *int) {
	activity, lastStatus = h.paneActivity(p)
	if activity != "running" {
		return activity, lastStatus
	}
	quiet := time.Duration(-1) // unknown: only tmux 3.8's marks say it runs
	if s := h.hub.Watching(p.ID); s != nil {
		quiet = s.QuietFor()
	}
	if look, err := h.input.Check(ctx, p.ID, quiet); err == nil && look.Waiting && !look.Dead {
		activity = "awaiting_input"
	}
	return activity, lastStatus
}

// An activity is what paneActivityNow says of one pane.
type activity struct {
	activity   string
	lastStatus *int
}

// lookers bounds the panes list_panes looks at at once: each look is a
// tmux command client and a few /proc reads.
const lookers = 4

// panesActivity is paneActivityNow for every pane of a list, the looks at
// running commands made side by side, so that a list costs one look's
// time however many commands run.
func (h *Handlers) panesActivity(ctx context.Context, panes []tmuxctl.Pane) []activity {
	out := make([]activity, len(panes))
	var wg sync.WaitGroup
	slots := make(chan struct{}, lookers)
	for i, p := range panes {
		out[i].activity, out[i].lastStatus = h.paneActivity(p)
		if out[i].activity != "running" {
			continue
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			out[i].activity, out[i].lastStatus = h.paneActivityNow(ctx, p)
		}()
	}
	wg.Wait()
	return out
}

// paneActivity returns the activity of pane p ("" when unknown: see
// live.ShellState.Activity) and the exit status of the last command its
// shell marked (nil when unknown): from the marks its stream read, else
// from those tmux read itself (3.8 and later), which also know a pane no
// instance watches. It costs a map lookup and a lock.
func (h *Handlers) paneActivity(p tmuxctl.Pane) (activity string, lastStatus *int) {
	if s := h.hub.Watching(p.ID); s != nil {
		if st := s.Shell(); st.Marked || !p.ShellMarked {
			st.Dead = st.Dead || p.Dead
			if st.Last != nil && st.Last.Status != frame.NoStatus {
				status := st.Last.Status
				lastStatus = &status
			}
			return st.Activity(), lastStatus
		}
	}
	switch {
	case p.Dead:
		return "dead", p.CommandStatus
	case !p.ShellMarked:
		return "", nil
	case p.CommandRuns:
		return "running", p.CommandStatus
	}
	return "prompt", p.CommandStatus
}

// activityOf returns activity as the optional enum field of type T.
func activityOf[T ~string](activity string) *T {
	if activity == "" {
		return nil
	}
	a := T(activity)
	return &a
}
