package main

import (
	"encoding/json"
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
	c := startServer(t, sock)
	c.tool(t, "list_panes", map[string]any{}) // the server works
	pid, err := strconv.Atoi(strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "#{pid}")))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })

	list := c.start("tools/call", map[string]any{"name": "list_panes", "arguments": map[string]any{}})
	wait := c.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
		"paneId": "%0", "patterns": []string{"never"}, "timeoutMs": 3000}})
	began := time.Now()
	// Generous bounds: the command deadline is 10 s; a loaded machine adds.
	for name, reply := range map[string]<-chan json.RawMessage{"list_panes": list, "wait_for_text": wait} {
		select {
		case r := <-reply:
			if !strings.Contains(string(r), "did not answer") && !strings.Contains(string(r), "before tmux answered") &&
				!strings.Contains(string(r), `"outcome"`) {
				t.Errorf("%s answered %s", name, r)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%s was never answered with tmux stopped", name)
		}
	}
	t.Logf("both answered %v after tmux stopped", time.Since(began))

	// A call in flight when SIGTERM comes is answered, and the process ends.
	inflight := c.start("tools/call", map[string]any{"name": "list_sessions", "arguments": map[string]any{}})
	c.call(t, "ping", map[string]any{}) // lines are read in order: the call above is in flight now
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-inflight:
	case <-time.After(60 * time.Second):
		t.Fatal("a call in flight at SIGTERM was never answered")
	}
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		t.Fatal("tmux-mcp did not exit after SIGTERM with tmux stopped")
	}
}
