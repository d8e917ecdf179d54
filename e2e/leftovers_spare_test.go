package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestLeftoverSpareAfterKill: run_program leaves a spare pane ready in the
// program session; SIGKILLed, the instance leaves nothing of it behind,
// with no later instance to clean up: the spare's shell reads end of file
// on its FIFO and ends, and its pane closes, so the program session keeps
// only its "about" window. The spare of a normal exit is killed.
func TestLeftoverSpareAfterKill(t *testing.T) {
	skipIfShort(t)
	for _, sigkill := range []bool{true, false} {
		name := "stdin-EOF"
		if sigkill {
			name = "SIGKILL"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sock := tmuxtest.Server(t)
			m := launchMCP(t, sock, privateTmpdir(t), tapIdle)
			out := m.mustTool(t, "run_program", map[string]any{"argv": []string{"true"}})
			if out["outcome"] != "completed" {
				t.Fatalf("run_program true: %v", out)
			}
			windows := func() string {
				return strings.TrimSpace(tmuxtest.Run(t, sock, "list-windows", "-t", "=tmux-mcp", "-F", "#{window_name}"))
			}
			awaitWindows := func(want func(string) bool, what string) {
				t.Helper()
				deadline := time.Now().Add(5 * time.Second)
				for !want(windows()) {
					if time.Now().After(deadline) {
						t.Fatalf("the program session's windows are %q; want %s", windows(), what)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			awaitWindows(func(w string) bool { return strings.Count(w, "\n") == 1 }, "about and the spare")
			if sigkill {
				if err := m.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			} else if err := m.CloseInput(); err != nil {
				t.Fatal(err)
			}
			if !m.awaitExit(replyBound) {
				t.Fatal("tmux-mcp did not exit")
			}
			t0 := time.Now()
			awaitWindows(func(w string) bool { return w == "about" }, "only about")
			t.Logf("the spare went %v after the exit", time.Since(t0))
		})
	}
}
