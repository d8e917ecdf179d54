package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/waiting"
)

// TestWaitEffective checks that the timeout enforced is the request
// clamped to the ceiling, as the results report it.
func TestWaitEffective(t *testing.T) {
	h := &Handlers{limits: Limits{WaitCeiling: 2 * time.Second}, shutdown: context.Background()}
	for _, tc := range []struct {
		ms   float64
		want int
	}{{1500, 1500}, {5000, 2000}, {0, 0}, {waiting.OrDefault(nil), 2000}} {
		w := h.beginWait(context.Background(), tc.ms, "test")
		if got := w.EffectiveMs(); got != tc.want || h.effectiveMs(tc.ms) != tc.want {
			t.Errorf("beginWait(%v): effective %d ms, want %d", tc.ms, got, tc.want)
		}
		w.Done()
	}
}
