package handlers

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A wait is the skeleton every waiting tool shares: the timeout it
// enforces (the request clamped to the server's ceiling), a context that
// ends at that timeout, when the call is cancelled or when the server
// stops, progress reports while it lasts, and one classification of how
// it ended.
type wait struct {
	h         *Handlers
	call      context.Context // the call's own context
	ctx       context.Context // the wait's: wait on this
	effective time.Duration   // the timeout enforced
	deadline  time.Time       // when the wait times out
	cancel    context.CancelFunc
	stop      func() // ends the progress reports
}

// beginWait starts a wait of ms milliseconds, clamped to the ceiling, from
// now, reporting progress with message if the client asked for it. The
// caller must call done.
func (h *Handlers) beginWait(ctx context.Context, ms float64, message string) *wait {
	effective := h.limits.clampMs(ms)
	w := &wait{h: h, call: ctx, effective: effective, deadline: time.Now().Add(effective)}
	w.ctx, w.cancel = h.waitContext(ctx, effective)
	w.stop = sync.OnceFunc(reportProgress(ctx, effective, message))
	return w
}

// waitContext bounds a wait by d and by server shutdown. Waits begin with
// beginWait; calls with a time budget rather than a wait (search_panes,
// call_read_tools_batch, a launch's start check) use it directly.
func (h *Handlers) waitContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, d)
	stop := context.AfterFunc(h.shutdown, cancel)
	return ctx, func() { stop(); cancel() }
}

// done releases the wait's context and progress reports.
func (w *wait) done() {
	w.stop()
	w.cancel()
}

// end stops the progress reports and classifies how the wait ended, given
// what the waiting returned (nil: what was waited for happened). It is the
// one classification: no waiting tool maps errors its own way.
func (w *wait) end(err error) waitEnd {
	w.stop()
	switch {
	case err == nil:
		return waitDone
	case errors.Is(err, live.ErrPaneGone), errors.Is(err, tmuxctl.ErrServerGone), errors.Is(err, tmuxctl.ErrChannelAborted):
		return waitGone
	case w.call.Err() != nil || w.h.shutdown.Err() != nil:
		return waitCancelled
	case errors.Is(err, context.DeadlineExceeded):
		return waitTimedOut
	}
	return waitFailed
}

// effectiveMs is the timeout enforced, as the results report it.
func (w *wait) effectiveMs() int { return int(w.effective / time.Millisecond) }

// effectiveMs is the timeout a wait of ms milliseconds would enforce, for
// a call that answers without waiting.
func (h *Handlers) effectiveMs(ms float64) int { return int(h.limits.clampMs(ms) / time.Millisecond) }

// setupContext bounds what a wait does before it starts waiting (finding
// the pane, starting to watch it): the wait's clock runs from its start,
// so a tmux server that answers slowly cannot stretch the call much past
// its timeout, but setting up gets a second at least.
func (w *wait) setupContext() (context.Context, context.CancelFunc) {
	return context.WithDeadline(w.call, later(w.deadline, time.Now().Add(time.Second)))
}

// A waitEnd is how a wait ended, in the one classification (wait.end) every
// waiting tool maps to its own outcomes.
type waitEnd int

const (
	waitDone      waitEnd = iota // what was waited for happened
	waitGone                     // what was waited on went: the pane, or its tmux server
	waitCancelled                // the call was cancelled or the server is stopping
	waitTimedOut                 // the wait's own timeout passed
	waitFailed                   // anything else: an error to report
)

// defaultWaitMs is the timeout of wait_for_text and wait_for_exit when
// omitted (SEED-CONTRACT 4), and of wait_for_quiet, which follows them. The
// seed schemas state it only in prose, and they cannot change.
const defaultWaitMs = 30000

// orDefaultWait is a seed tool's timeoutMs, or its default when omitted.
func orDefaultWait(ms *int) float64 {
	if ms == nil {
		return defaultWaitMs
	}
	return float64(*ms)
}
