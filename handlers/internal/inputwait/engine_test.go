package inputwait

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// withoutSyscall is the OS's facts with /proc/PID/syscall unreadable, as
// it is where Yama refuses ptrace rights to processes that are not our
// descendants.
type withoutSyscall struct{ Facts }

func (f withoutSyscall) Foreground(pid int, tty string) (Group, error) {
	g, err := f.Facts.Foreground(pid, tty)
	for i := range g.Procs {
		g.Procs[i].Syscall = Syscall{}
	}
	return g, err
}

// testRig is a private tmux with a hub, and engines on it.
type testRig struct {
	t      *testing.T
	sock   string
	client *tmuxctl.Client
	hub    *live.Hub
}

func newRig(t *testing.T) *testRig {
	t.Helper()
	sock := tmuxtest.Server(t)
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	hub, err := live.New(client, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	return &testRig{t: t, sock: sock, client: client, hub: hub}
}

// start runs shell command cmd in a new window and returns its pane.
func (r *testRig) start(cmd string) tmuxctl.PaneID {
	r.t.Helper()
	out := tmuxtest.Run(r.t, r.sock, "new-window", "-d", "-t", "main", "-P", "-F", "#{pane_id}", cmd)
	return tmuxctl.PaneID(strings.TrimSpace(out))
}

// await runs Engine.Await on pane for at most d.
func (r *testRig) await(e *Engine, pane tmuxctl.PaneID, d time.Duration) (Ending, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	s, err := r.hub.Watch(ctx, pane)
	if err != nil {
		return Ending{}, err
	}
	return e.Await(ctx, s, s.End())
}

// TestAwaitWithoutSyscall finds a terminal read, a REPL and a shell at
// its prompt waiting, and a sleep after a question not, with
// /proc/PID/syscall taken away.
func TestAwaitWithoutSyscall(t *testing.T) {
	r := newRig(t)
	for _, facts := range []Facts{OSFacts(), withoutSyscall{OSFacts()}} {
		e := NewWithFacts(r.client, facts)
		for _, tc := range []struct {
			cmd    string
			want   bool
			prompt string
		}{
			{`printf 'Overwrite? [y/N] '; read a`, true, "Overwrite? [y/N]"},
			{"exec " + python(t) + " -q", true, ">>>"},
			{`PS1='ready$ ' exec bash --norc -i`, true, "ready$"},
			{`printf 'Password: '; exec sleep 30`, false, ""},
		} {
			pane := r.start(tc.cmd)
			end, err := r.await(e, pane, 3*time.Second)
			if tc.want && (err != nil || !end.Waiting || end.Prompt != tc.prompt) {
				t.Errorf("%T: %s: Await = %+v, %v; want waiting at %q", facts, tc.cmd, end, err, tc.prompt)
			}
			if !tc.want && err == nil {
				t.Errorf("%T: %s: Await = %+v; want no wait before the timeout", facts, tc.cmd, end)
			}
		}
	}
}

var pythonOnce = sync.OnceValue(func() string {
	// A version manager's shim (pyenv's is a shell script) can take
	// seconds to start: run the interpreter it resolves to.
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// python returns the python3 interpreter, skipping the test without one.
func python(t *testing.T) string {
	t.Helper()
	p := pythonOnce()
	if p == "" {
		t.Skip("python3 not installed")
	}
	return p
}
