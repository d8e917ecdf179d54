package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestRunShellCommandInAShellStillStarting: a pane made a moment ago whose
// shell runs something else first (as an rc file may, or as tmux's own
// fork shows before it execs the shell) is not refused as busy; the
// command waits for the shell and runs.
func TestRunShellCommandInAShellStillStarting(t *testing.T) {
	sock := tmuxtest.Server(t)
	m := launchMCP(t, sock, "")
	// An interactive sh runs $ENV's sleep in a process group of its own:
	// for its 0.3 s the pane's command is sleep, in the shell sh.
	rc := filepath.Join(t.TempDir(), "rc")
	if err := os.WriteFile(rc, []byte("sleep 0.3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pane := newPane(t, sock, "env", "ENV="+rc, "sh", "-i")
	out, err := m.tool("run_shell_command", map[string]any{"paneId": pane, "command": "echo sta''rted", "timeoutMs": 20000})
	if err != nil {
		t.Fatalf("run_shell_command in a shell still starting: %v", err)
	}
	if out["outcome"] != "completed" || out["exitStatus"] != float64(0) || out["output"] != "started\n" {
		t.Errorf("run_shell_command in a shell still starting: %v, want completed, status 0, output started", out)
	}
}
