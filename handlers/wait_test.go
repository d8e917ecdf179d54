package handlers

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// TestWaitEnd checks the one classification of how a wait ended.
func TestWaitEnd(t *testing.T) {
	limits := Limits{WaitCeiling: time.Minute}
	begin := func(call, shutdown context.Context, ms float64) *wait {
		h := &Handlers{limits: limits, shutdown: shutdown}
		return h.beginWait(call, ms, "test")
	}
	bg := context.Background()

	for _, tc := range []struct {
		name string
		err  error
		want waitEnd
	}{
		{"nil is done", nil, waitDone},
		{"pane gone", fmt.Errorf("wait: %w", live.ErrPaneGone), waitGone},
		{"server gone", fmt.Errorf("wait: %w", tmuxctl.ErrServerGone), waitGone},
		{"channel aborted", fmt.Errorf("wait-for x: %w", tmuxctl.ErrChannelAborted), waitGone},
		{"anything else fails", errors.New("tmux said no"), waitFailed},
	} {
		w := begin(bg, bg, 1000)
		if got := w.end(tc.err); got != tc.want {
			t.Errorf("%s: end = %v, want %v", tc.name, got, tc.want)
		}
		w.done()
	}

	// The wait's own timeout passing is timed out.
	w := begin(bg, bg, 1)
	<-w.ctx.Done()
	if got := w.end(w.ctx.Err()); got != waitTimedOut {
		t.Errorf("timeout: end = %v, want timed out", got)
	}
	w.done()

	// The call cancelled, or the server stopping, is cancelled.
	call, cancelCall := context.WithCancel(bg)
	w = begin(call, bg, 60000)
	cancelCall()
	<-w.ctx.Done()
	if got := w.end(w.ctx.Err()); got != waitCancelled {
		t.Errorf("call cancelled: end = %v, want cancelled", got)
	}
	w.done()
	shutdown, stop := context.WithCancel(bg)
	w = begin(bg, shutdown, 60000)
	stop()
	<-w.ctx.Done()
	if got := w.end(w.ctx.Err()); got != waitCancelled {
		t.Errorf("shutdown: end = %v, want cancelled", got)
	}
	w.done()
}

// TestWaitEffective checks that the timeout enforced is the request
// clamped to the ceiling, as the results report it.
func TestWaitEffective(t *testing.T) {
	h := &Handlers{limits: Limits{WaitCeiling: 2 * time.Second}, shutdown: context.Background()}
	for _, tc := range []struct {
		ms   float64
		want int
	}{{1500, 1500}, {5000, 2000}, {0, 0}, {orDefaultWait(nil), 2000}} {
		w := h.beginWait(context.Background(), tc.ms, "test")
		if got := w.effectiveMs(); got != tc.want || h.effectiveMs(tc.ms) != tc.want {
			t.Errorf("beginWait(%v): effective %d ms, want %d", tc.ms, got, tc.want)
		}
		w.done()
	}
}
