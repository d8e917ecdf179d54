package handlers

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestExitCheckIsJoined: the goroutine a launch starts to read an early
// exit, once a death is reported, has ended by the time the launch answers, so none outlives its call
// (and none is left running at shutdown).
func TestExitCheckIsJoined(t *testing.T) {
	limits := DefaultLimits
	limits.StartGrace = 20 * time.Millisecond
	h, _, _ := testHandlers(t, limits, tmuxctl.Config{})
	ctx := context.Background()
	release, err := h.exits.HoldBriefly(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// A death reported of a pane that still runs (as when tmux reports
	// another pane's) starts the exit check.
	died := make(chan struct{})
	close(died)
	for range 5 {
		// The shell in %0 does not exit: the grace passes while the
		// exit check still waits.
		if _, exited := h.exitedAtOnce(ctx, nil, "%0", "n0nce", died); exited {
			t.Fatal("a running shell was reported as exited")
		}
		buf := make([]byte, 1<<20)
		if stacks := string(buf[:runtime.Stack(buf, true)]); strings.Contains(stacks, "exitedAtOnce.func") {
			t.Fatalf("the exit check outlived its call:\n%s", stacks)
		}
	}
}
