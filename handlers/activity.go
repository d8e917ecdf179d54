// This file says what a pane is doing, for get_pane_info and list_panes,
// from what is already known without asking tmux: whether the pane is
// dead, and the shell marks (OSC 133) its stream has read.

package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

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
