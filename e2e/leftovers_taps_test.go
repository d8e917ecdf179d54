package e2e

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// tapPIDOf waits for pane's mark to name its tap's process and returns it.
func tapPIDOf(t *testing.T, sock, pane string) int {
	t.Helper()
	var pid int
	if !poll(inFlightBound, func() bool {
		mark := strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", pane, "#{"+pipeOption+"}"))
		if !strings.HasPrefix(mark, "tap.") {
			return false
		}
		n, err := strconv.Atoi(mark[strings.LastIndexByte(mark, '.')+1:])
		pid = n
		return err == nil && n > 1
	}) {
		t.Fatalf("%s: no tap recorded in its mark", pane)
	}
	return pid
}

// TestLeftoverTaps: with every instance SIGKILLed, a pane's tap expires by
// itself after --stream-idle and takes its pipe, mark and socket with it;
// a tap SIGKILLed too is swept by the next start.
func TestLeftoverTaps(t *testing.T) {
	skipIfShort(t)
	for _, tc := range []struct {
		name    string
		killTap bool
	}{{"tap expires", false}, {"tap killed, swept", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sock := tmuxtest.Server(t)
			tmpdir := privateTmpdir(t)
			pane := newPane(t, sock, "sleep", "1000")
			idle := tapIdle
			if tc.killTap {
				idle = "--stream-idle=10m" // only the sweep can clean up
			}
			ms := []*mcpServer{launchMCP(t, sock, tmpdir, idle), launchMCP(t, sock, tmpdir, idle)}
			for _, m := range ms {
				m.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
					"paneId": pane, "patterns": []string{"never printed 3e9d"}, "timeoutMs": 30000}})
			}
			awaitInFlight(t, ms[0], sock, pane, watchedSign)
			tap := tapPIDOf(t, sock, pane)
			var ours []process
			for _, m := range ms {
				ours = append(ours, descendants(processes(), m.pid())...)
				m.Cmd.Process.Signal(syscall.SIGKILL)
				m.awaitExit(replyBound)
			}
			panes := []testPane{{id: pane}}
			if tc.killTap {
				syscall.Kill(tap, syscall.SIGKILL)
				if !poll(settleBound, func() bool { return syscall.Kill(tap, 0) != nil }) {
					t.Fatalf("tap %d still runs after SIGKILL", tap)
				}
				time.Sleep(100 * time.Millisecond)
				if p, _ := listPanes(sock); !p[pane].pipe {
					t.Fatalf("%s: the killed tap's pipe is already closed: nothing for the sweep to do", pane)
				}
			} else {
				// No instance runs: the tap alone ends, and its pipe and mark go.
				if !poll(settleBound, func() bool {
					p, _ := listPanes(sock)
					mark := strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", pane, "#{"+pipeOption+"}"))
					return !p[pane].pipe && mark == "" && syscall.Kill(tap, 0) != nil
				}) {
					t.Errorf("%s: its tap did not end by itself after %s without a reader", pane, idle)
				}
			}
			// The dead instances' private directories wait for a start.
			runFreshOnce(t, sock, tmpdir, "mutating")
			awaitClean(t, cleanState{sock: sock, tmpdir: tmpdir, panes: panes, ours: ours}, "after SIGKILL of every instance")
		})
	}
}
