package handlers

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestShellStartingWaitsForTmuxsFork: a pane just made whose process is
// still tmux's fork (it has the server's name, not a shell's) is asked
// again, as one whose young shell runs its rc file is; a young process
// that is some other program is not (CI met "pane %3 is running tmux"
// from run_shell_command right after new-window).
func TestShellStartingWaitsForTmuxsFork(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	start := func(name string) int {
		link := filepath.Join(t.TempDir(), name)
		if err := os.Symlink(sleep, link); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(link, "30")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd.Process.Pid
	}
	server, fork, vim, sh := start("tmux"), start("tmux"), start("vim"), start("sh")
	var h Handlers
	for _, c := range []struct {
		name string
		pane tmuxctl.Pane
		want bool
	}{
		{"tmux's fork", tmuxctl.Pane{PID: fork, ServerPID: server, Command: "tmux"}, true},
		{"a young shell running its rc file", tmuxctl.Pane{PID: sh, ServerPID: server, Command: "sleep"}, true},
		{"a young vim", tmuxctl.Pane{PID: vim, ServerPID: server, Command: "vim"}, false},
		{"a shell at its prompt", tmuxctl.Pane{PID: sh, ServerPID: server, Command: "sh"}, false},
		{"a dead fork", tmuxctl.Pane{PID: fork, ServerPID: server, Command: "tmux", Dead: true}, false},
	} {
		if got := h.shellStarting(c.pane); got != c.want {
			t.Errorf("%s: shellStarting %v, want %v", c.name, got, c.want)
		}
	}
}
