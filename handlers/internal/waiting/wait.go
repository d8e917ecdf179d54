package waiting

import (
	"context"
	"errors"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A Wait is the skeleton every waiting tool shares: the timeout it
// enforces, a context that ends at that timeout, when the call is
// cancelled or when the server stops, progress reports while it lasts,
// and one classification of how it ended.
type Wait struct {
	Ctx       context.Context // the wait's: wait on this
	Effective time.Duration   // the timeout enforced
	call      context.Context // the call's own context
	shutdown  context.Context // ends when the server stops
	deadline  time.Time
	cancel    context.CancelFunc
	stop      func()   // ends the progress reports, waiting for the ticker
	holds     []func() // releases the streams the wait holds (Watch.Open)
}

// Begin starts a wait of effective (already clamped: see [Clamp]) from
// now, for the call ctx of a server that stops when shutdown ends,
// reporting progress with message if the client asked for it. The caller
// must call Done.
func Begin(ctx, shutdown context.Context, effective time.Duration, message string) *Wait {
	w := &Wait{Effective: effective, call: ctx, shutdown: shutdown, deadline: time.Now().Add(effective)}
	w.Ctx, w.cancel = Bound(ctx, shutdown, effective)
	w.stop = reportProgress(ctx, effective, message, progressInterval)
	return w
}

// Bound bounds ctx by d and by server shutdown. Waits begin with Begin;
// calls with a time budget rather than a wait (search_panes,
// call_read_tools_batch, a launch's start check) use Bound directly.
func Bound(ctx, shutdown context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, d)
	stop := context.AfterFunc(shutdown, cancel)
	return ctx, func() { stop(); cancel() }
}

// Clamp clamps a requested wait in milliseconds to ceiling. It works on
// the number before converting, so no request can overflow a Duration.
func Clamp(ms float64, ceiling time.Duration) time.Duration {
	if ms >= float64(ceiling/time.Millisecond) {
		return ceiling
	}
	if ms <= 0 {
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// Done releases the wait's context and stops its progress reports.
func (w *Wait) Done() {
	w.stop()
	w.cancel()
	for _, release := range w.holds {
		release()
	}
	w.holds = nil
}

// An Ending is how a wait ended, in the one classification every waiting
// tool maps to its own outcomes.
type Ending int

const (
	Happened  Ending = iota // what was waited for happened
	Gone                    // what was waited on went: the pane, or its tmux server
	Cancelled               // the call was cancelled or the server is stopping
	TimedOut                // the wait's own timeout passed
	Failed                  // anything else: an error to report
)

// End stops the progress reports and classifies how the wait ended, given
// what the waiting returned (nil: what was waited for happened). It is the
// one classification: no waiting tool maps errors its own way.
func (w *Wait) End(err error) Ending {
	w.stop()
	switch {
	case err == nil:
		return Happened
	case errors.Is(err, live.ErrPaneGone), errors.Is(err, tmuxctl.ErrServerGone), errors.Is(err, tmuxctl.ErrChannelAborted):
		return Gone
	case w.call.Err() != nil || w.shutdown.Err() != nil:
		return Cancelled
	case errors.Is(err, context.DeadlineExceeded):
		return TimedOut
	}
	return Failed
}

// EffectiveMs is the timeout enforced, as the results report it.
func (w *Wait) EffectiveMs() int { return int(w.Effective / time.Millisecond) }

// Setup bounds what a wait does before it starts waiting (finding the
// pane, starting to watch it): the wait's clock runs from its start, so a
// tmux server that answers slowly cannot stretch the call much past its
// timeout, but setting up gets a second at least.
func (w *Wait) Setup() (context.Context, context.CancelFunc) {
	return context.WithDeadline(w.call, later(w.deadline, time.Now().Add(time.Second)))
}

// defaultMs is the timeout of wait_for_text and wait_for_exit when
// omitted (SEED-CONTRACT 4), and of wait_for_quiet, which follows them.
// The seed schemas state it only in prose, and they cannot change.
const defaultMs = 30000

// OrDefault is a seed tool's timeoutMs, or its default when omitted.
func OrDefault(ms *int) float64 {
	if ms == nil {
		return defaultMs
	}
	return float64(*ms)
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
