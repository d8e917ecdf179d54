package e2e

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestWedgedTmuxAnswersEveryCall stops the tmux server (SIGSTOP) with calls
// about to be made: every call is answered — read tools with an error that
// says tmux did not answer, a wait within its own timeout — and SIGTERM
// then ends tmux-mcp, answering what is in flight.
func TestWedgedTmuxAnswersEveryCall(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out tmux command deadlines")
	}
	sock := tmuxtest.Server(t)
	c := launchMCP(t, sock, "")
	c.mustTool(t, "list_panes", map[string]any{}) // the server works
	pid, err := strconv.Atoi(strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "#{pid}")))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })

	list := c.startTool("list_panes", map[string]any{})
	wait := c.startTool("wait_for_text", map[string]any{"paneId": "%0", "patterns": []string{"never"}, "timeoutMs": 3000})
	began := time.Now()
	// Generous bounds: the command deadline is 10 s; a loaded machine adds.
	for name, reply := range map[string]string{"list_panes": list, "wait_for_text": wait} {
		r, err := c.Wait(reply, wedgedReplyBound)
		if err != nil {
			t.Fatalf("%s was never answered with tmux stopped: %v", name, err)
		}
		if !strings.Contains(string(r), "did not answer") && !strings.Contains(string(r), "before tmux answered") &&
			!strings.Contains(string(r), `"outcome"`) {
			t.Errorf("%s answered %s", name, r)
		}
	}
	t.Logf("both answered %v after tmux stopped", time.Since(began))

	// A call in flight when SIGTERM comes is answered, and the process ends.
	inflight := c.startTool("list_sessions", map[string]any{})
	// Lines are read in order: once ping is answered, the call above is in
	// flight.
	if _, err := c.Call("ping", map[string]any{}, wedgedReplyBound); err != nil {
		t.Fatal(err)
	}
	c.Cmd.Process.Signal(syscall.SIGTERM)
	if _, err := c.Wait(inflight, wedgedReplyBound); err != nil {
		t.Fatalf("a call in flight at SIGTERM was never answered: %v", err)
	}
	if !c.AwaitExit(wedgedReplyBound) {
		t.Fatal("tmux-mcp did not exit after SIGTERM with tmux stopped")
	}
}

// wedgedReplyBound bounds each reply and the exit with tmux stopped: far
// past tmux commands' own 10 s deadline.
const wedgedReplyBound = 60 * time.Second
