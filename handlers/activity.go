// This file says what a pane is doing, for get_pane_info and list_panes,
// from what is already known without asking tmux: whether the pane is
// dead, and the shell marks (OSC 133) its stream has read.

package handlers

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// paneActivityNow is paneActivity for one pane, with the input engine's
// look when its shell says a command runs: "awaiting_input" when that
// command waits for input. get_pane_info pays for the look (a tmux round
// trip and /proc reads, 50 ms more when the first look says waiting);
// list_panes does not.
func (h *Handlers) paneActivityNow(ctx context.Context, p tmuxctl.PaneID, dead bool) (activity string, lastStatus *int) {
	activity, lastStatus = h.paneActivity(p, dead)
	if activity != "running" {
		return activity, lastStatus
	}
	s := h.hub.Watching(p)
	if s == nil {
		return activity, lastStatus
	}
	if look, err := h.input.Check(ctx, p, s.QuietFor()); err == nil && look.Waiting && !look.Dead {
		activity = "awaiting_input"
	}
	return activity, lastStatus
}

// paneActivity returns the activity of pane p ("" when unknown: see
// live.ShellState.Activity) and the exit status of the last command its
// shell marked (nil when unknown). It costs a map lookup and a lock per
// pane: list_panes calls it for every pane it lists.
func (h *Handlers) paneActivity(p tmuxctl.PaneID, dead bool) (activity string, lastStatus *int) {
	s := h.hub.Watching(p)
	if s == nil {
		if dead {
			return "dead", nil
		}
		return "", nil
	}
	st := s.Shell()
	st.Dead = st.Dead || dead
	if st.Last != nil && st.Last.Status != frame.NoStatus {
		status := st.Last.Status
		lastStatus = &status
	}
	return st.Activity(), lastStatus
}

// activityOf returns activity as the optional enum field of type T.
func activityOf[T ~string](activity string) *T {
	if activity == "" {
		return nil
	}
	a := T(activity)
	return &a
}
