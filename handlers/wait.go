package handlers

import (
	"context"
	"errors"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A waitEnd is how a wait for a program ended, in the one classification
// every waiting tool maps to its own outcomes.
type waitEnd int

const (
	waitDone      waitEnd = iota // what was waited for happened
	waitGone                     // the pane went (alone or with its tmux server)
	waitCancelled                // the call was cancelled or the server is stopping
	waitTimedOut                 // the wait's own timeout passed
	waitFailed                   // anything else: an error to report
)

// howEnded classifies err, returned by a wait bounded by a context made with
// waitContext from ctx.
func (h *Handlers) howEnded(ctx context.Context, err error) waitEnd {
	switch {
	case err == nil:
		return waitDone
	case errors.Is(err, live.ErrPaneGone), errors.Is(err, tmuxctl.ErrServerGone):
		return waitGone
	case ctx.Err() != nil || h.shutdown.Err() != nil:
		return waitCancelled
	case errors.Is(err, context.DeadlineExceeded):
		return waitTimedOut
	}
	return waitFailed
}
