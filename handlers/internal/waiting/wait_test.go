package waiting

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
	begin := func(call, shutdown context.Context, ms float64) *Wait {
		return Begin(call, shutdown, Clamp(ms, time.Minute), "test")
	}
	bg := context.Background()

	for _, tc := range []struct {
		name string
		err  error
		want Ending
	}{
		{"nil is done", nil, Happened},
		{"pane gone", fmt.Errorf("wait: %w", live.ErrPaneGone), Gone},
		{"server gone", fmt.Errorf("wait: %w", tmuxctl.ErrServerGone), Gone},
		{"channel aborted", fmt.Errorf("wait-for x: %w", tmuxctl.ErrChannelAborted), Gone},
		{"anything else fails", errors.New("tmux said no"), Failed},
	} {
		w := begin(bg, bg, 1000)
		if got := w.End(tc.err); got != tc.want {
			t.Errorf("%s: end = %v, want %v", tc.name, got, tc.want)
		}
		w.Done()
	}

	// The wait's own timeout passing is timed out.
	w := begin(bg, bg, 1)
	<-w.Ctx.Done()
	if got := w.End(w.Ctx.Err()); got != TimedOut {
		t.Errorf("timeout: end = %v, want timed out", got)
	}
	w.Done()

	// The call cancelled, or the server stopping, is cancelled.
	call, cancelCall := context.WithCancel(bg)
	w = begin(call, bg, 60000)
	cancelCall()
	<-w.Ctx.Done()
	if got := w.End(w.Ctx.Err()); got != Cancelled {
		t.Errorf("call cancelled: end = %v, want cancelled", got)
	}
	w.Done()
	shutdown, stop := context.WithCancel(bg)
	w = begin(bg, shutdown, 60000)
	stop()
	<-w.Ctx.Done()
	if got := w.End(w.Ctx.Err()); got != Cancelled {
		t.Errorf("shutdown: end = %v, want cancelled", got)
	}
	w.Done()
}
