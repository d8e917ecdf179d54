package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// get_pane_info says awaiting_input while the command a marking shell
// runs waits for input, and running while it works.
func TestPaneInfoSaysAwaitingInput(t *testing.T) {
	h, _, sock := testHandlers(t, DefaultLimits, tmuxctl.Config{})
	tmuxtest.MarkingBash(t, sock)
	ctx := context.Background()
	if _, err := h.hub.Watch(ctx, "%1"); err != nil {
		t.Fatal(err)
	}
	activity := func() string {
		out, err := h.GetPaneInfo(ctx, gen.GetPaneInfoInput{PaneID: "%1"})
		if err != nil {
			t.Fatal(err)
		}
		if out.Activity == nil {
			return ""
		}
		return string(*out.Activity)
	}
	await := func(want string) {
		t.Helper()
		got := ""
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if got = activity(); got == want {
				return
			}
		}
		t.Fatalf("activity %q, want %q", got, want)
	}
	// The first prompt may have come before the stream: the next one is seen.
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "true", "Enter")
	await("prompt")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "sleep 30", "Enter")
	await("running")
	// Working, not asking: a second look after the quiet period agrees.
	time.Sleep(500 * time.Millisecond)
	if got := activity(); got != "running" {
		t.Fatalf("sleep 30: activity %q, want running", got)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "C-c")
	await("prompt")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", `read -p "Name? " x`, "Enter")
	await("awaiting_input")
}
