package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

func spareHandlers(t *testing.T) (*Handlers, string) {
	t.Helper()
	limits := DefaultLimits
	limits.Spare = true
	h, _, sock := testHandlersWith(t, limits, tmuxctl.Config{}, live.Options{})
	t.Cleanup(h.Close)
	return h, sock
}

func readySpare(t *testing.T, h *Handlers) *spare {
	t.Helper()
	for range 400 {
		h.spares.mu.Lock()
		s := h.spares.ready
		h.spares.mu.Unlock()
		if s != nil {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no spare pane was made")
	return nil
}

func TestSpareTiming(t *testing.T) {
	h, _ := spareHandlers(t)
	ctx := context.Background()
	for i := range 6 {
		t0 := time.Now()
		out, err := h.RunProgram(ctx, gen.RunProgramInput{Argv: []string{"true"}, TimeoutMs: 10000})
		h.spares.mu.Lock()
		r := h.spares.ready != nil
		h.spares.mu.Unlock()
		t.Logf("%d: %v %s %v %v ready=%v", i, time.Since(t0), out.PaneID, out.Outcome, err, r)
		time.Sleep(200 * time.Millisecond)
	}
}
