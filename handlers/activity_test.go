package handlers

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// paneState is what get_pane_info and list_panes say of pane %1, which
// must agree: its activity ("-" when none), then, with status, the last
// marked command's exit status when known.
func paneState(t *testing.T, h *Handlers, status bool) string {
	t.Helper()
	ctx := context.Background()
	info, err := h.GetPaneInfo(ctx, gen.GetPaneInfoInput{PaneID: "%1"})
	if err != nil {
		t.Fatal(err)
	}
	list, err := h.ListPanes(ctx, gen.ListPanesInput{})
	if err != nil {
		t.Fatal(err)
	}
	say := func(activity *string, last *int) string {
		s := "-"
		if activity != nil {
			s = *activity
		}
		if status && last != nil {
			s += fmt.Sprintf(" %d", *last)
		}
		return s
	}
	fromInfo := say((*string)(info.Activity), info.LastExitStatus)
	fromList := "not listed"
	for _, p := range list.Panes {
		if p.PaneID == "%1" {
			fromList = say((*string)(p.Activity), p.LastExitStatus)
		}
	}
	if fromInfo != fromList {
		return fmt.Sprintf("get_pane_info %q, list_panes %q", fromInfo, fromList)
	}
	return fromInfo
}

// awaitPaneState waits until paneState says want.
func awaitPaneState(t *testing.T, h *Handlers, status bool, want string) {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = paneState(t, h, status); got == want {
			return
		}
	}
	t.Fatalf("pane state %q, want %q", got, want)
}

// get_pane_info and list_panes say awaiting_input while the command a
// marking shell runs waits for input, and running while it works.
func TestPaneInfoSaysAwaitingInput(t *testing.T) {
	h, _, sock := testHandlers(t, DefaultLimits, tmuxctl.Config{})
	tmuxtest.MarkingBash(t, sock)
	if _, err := h.hub.Watch(context.Background(), "%1"); err != nil {
		t.Fatal(err)
	}
	await := func(want string) { t.Helper(); awaitPaneState(t, h, false, want) }
	// The first prompt may have come before the stream: the next one is seen.
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "true", "Enter")
	await("prompt")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "sleep 30", "Enter")
	await("running")
	// Working, not asking: a second look after the quiet period agrees.
	time.Sleep(500 * time.Millisecond)
	if got := paneState(t, h, false); got != "running" {
		t.Fatalf("sleep 30: activity %q, want running", got)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "C-c")
	await("prompt")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", `read -p "Name? " x`, "Enter")
	await("awaiting_input")
}

// On tmux 3.8, which reads the shell's marks itself, get_pane_info and
// list_panes say what a pane no instance watches is doing, and its last
// command's status. Earlier versions skip: the marks reach tmux-mcp
// there only through a watched pane's stream (the test above).
func TestPaneInfoFromTmuxMarks(t *testing.T) {
	h, client, sock := testHandlers(t, DefaultLimits, tmuxctl.Config{})
	if v, err := client.Version(context.Background()); err != nil || !v.AtLeast(3, 8) {
		t.Skipf("tmux %v reads no shell marks itself (3.8 does)", v)
	}
	tmuxtest.MarkingBash(t, sock)
	await := func(want string) { t.Helper(); awaitPaneState(t, h, true, want) }
	await("prompt 0") // the rc file ends every command, and its start, with D
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "(exit 7)", "Enter")
	await("prompt 7")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "sleep 30", "Enter")
	await("running")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "C-c")
	await("prompt 130")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", `read -p "Name? " x`, "Enter")
	await("awaiting_input")
	if h.hub.Watching("%1") != nil {
		t.Fatal("the pane was watched: its marks did not come from tmux alone")
	}
}
