package handlers

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestListPanesKnowsANewPanesCwd: list_panes asked right after tmux made a
// pane (its forked process may not have taken the pane's terminal yet, when
// tmux cannot read its cwd) still names the pane's cwd.
func TestListPanesKnowsANewPanesCwd(t *testing.T) {
	h, client, _ := testHandlers(t, DefaultLimits, tmuxctl.Config{})
	ctx := context.Background()
	dir := t.TempDir()
	for i := range 40 {
		c, err := client.NewWindow(ctx, "$0", tmuxctl.NewWindowOptions{Spawn: tmuxctl.Spawn{Argv: []string{"sleep", "30"}, Cwd: dir}})
		if err != nil {
			t.Fatal(err)
		}
		window := string(c.Window)
		out, err := h.ListPanes(ctx, gen.ListPanesInput{WindowID: &window})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Panes) != 1 || out.Panes[0].Cwd != dir {
			t.Fatalf("window %d: list_panes of a new pane gave %+v, want cwd %s", i, out.Panes, dir)
		}
		if err := client.KillWindow(ctx, c.Window); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExecSeen: a pane process with its server's name is still forked and
// is asked about every time; one seen with another name is remembered for
// that pane and process only (a respawned pane's new process is not).
func TestExecSeen(t *testing.T) {
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	self := os.Getpid()
	var e execSeen
	forked := tmuxctl.Pane{ID: "%1", PID: self, ServerPID: self}
	for range 2 {
		if !e.stillForked(forked) {
			t.Fatal("a process with the server's own name is not still forked")
		}
	}
	if len(e.execd) != 0 {
		t.Fatalf("a forked process was recorded as exec'd: %v", e.execd)
	}
	execd := tmuxctl.Pane{ID: "%1", PID: child.Process.Pid, ServerPID: self}
	if e.stillForked(execd) {
		t.Fatal("sleep has the test binary's name")
	}
	if !e.execd[paneProcess{self, "%1", child.Process.Pid}] || len(e.execd) != 1 {
		t.Fatalf("the exec'd process is not the one recorded: %v", e.execd)
	}
	if !e.stillForked(forked) {
		t.Fatal("the pane's respawned process (another pid) was taken for the exec'd one")
	}
}
