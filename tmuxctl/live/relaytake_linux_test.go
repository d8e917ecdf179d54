package live

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"golang.org/x/sys/unix"
)

// On Linux the stream host takes a watched pane's pipe from its relay's
// shell, which then exits: no process is left per pane, and the stream
// has the pane's output. With relayCatEnv, the way of macOS and FreeBSD,
// the relay becomes a cat that stays.
func TestHostTakesThePipe(t *testing.T) {
	for _, relay := range []string{"taken", "cat"} {
		t.Run(relay, func(t *testing.T) {
			if relay == "taken" {
				if why := pipesNotTakable(); why != "" {
					t.Skip(why)
				}
			}
			t.Setenv(relayCatEnv, map[string]string{"taken": "", "cat": "1"}[relay])
			h, c, sock := newTapHub(t)
			s, err := h.Watch(context.Background(), "%0")
			if err != nil {
				t.Fatal(err)
			}
			hostOf(t, c, "%0")
			tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo through-the-"+relay, "Enter")
			waitText(t, s, 0, "through-the-"+relay)

			server, _ := strconv.Atoi(strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "#{pid}")))
			shell, _ := strconv.Atoi(strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "#{pane_pid}")))
			want := 0
			if relay == "cat" {
				want = 1
			}
			var others []string
			for deadline := time.Now().Add(eventBound); ; time.Sleep(10 * time.Millisecond) {
				others = others[:0]
				for _, pid := range childrenOf(server) {
					if pid != shell {
						others = append(others, proc.Name(pid))
					}
				}
				if len(others) == want || time.Now().After(deadline) {
					break
				}
			}
			if len(others) != want || want == 1 && others[0] != "cat" {
				t.Errorf("the tmux server's children besides the pane's shell: %q, want %d cat", others, want)
			}
		})
	}
}

// pipesNotTakable says why the host cannot take a relay's pipe here (the
// relay is tmux's child, not the host's), or "" when it can.
func pipesNotTakable() string {
	if b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope"); err == nil && strings.TrimSpace(string(b)) != "0" {
		return "Yama's ptrace_scope is " + strings.TrimSpace(string(b)) + ": only a process's ancestors may take its descriptors"
	}
	fd, err := takeRelayPipe(os.Getpid()) // EBADF if this process has no descriptor 4
	if err == nil {
		unix.Close(fd)
	} else if !errors.Is(err, unix.EBADF) {
		return "pidfd_getfd is refused here: " + err.Error()
	}
	return ""
}

// childrenOf returns the pids whose parent is pid.
func childrenOf(pid int) []int {
	var kids []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			kid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			kids = append(kids, kid)
		}
	}
	return kids
}
