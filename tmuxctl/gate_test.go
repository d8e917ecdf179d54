package tmuxctl

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// The gating shells talk to no tmux at all, so a pane's program starts,
// and an acking shell ends the way its program did, when the tmux binary
// (configured, and first on the panes' PATH) is 3.5a and the server 3.7c —
// a 3.5a client cannot talk to a 3.7c server. The gates' FIFOs live under
// a temporary directory whose path holds a space, a quote and "#(", which
// reach the shells only as arguments.
func TestGatesWithOlderTmuxOnPath(t *testing.T) {
	old, newer := builtTmux("3.5a"), builtTmux("3.7c")
	if old == "" || newer == "" {
		t.Skip("needs tmux 3.5a and 3.7c built in the user cache's tmux-builds (build.sh 3.5a; build.sh 3.7c)")
	}
	base, err := os.MkdirTemp("", "tmux-mcp-test-")
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(base, `a b'c#(touch x)`)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(base, "s")
	t.Cleanup(func() {
		exec.Command(newer, "-S", sock, "kill-server").Run()
		os.RemoveAll(base)
	})
	t.Setenv("TMPDIR", tmp)
	t.Setenv("PATH", filepath.Dir(old)+string(os.PathListSeparator)+os.Getenv("PATH"))
	start := exec.Command(newer, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "cat")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("starting tmux 3.7c: %v %s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := New(Config{Binary: old, SocketPath: sock})
	if _, err := c.command(ctx, "set-option", "-g", "remain-on-exit", "on"); err != nil {
		t.Fatal(err)
	}

	// An acking gate: the program runs, the shell waits for the ack after
	// its exit marker, then ends with the program's status.
	gate, err := NewGate(true, "n0nce")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(gate.AckChannel, tmp) {
		t.Fatalf("ack FIFO %s, want it under TMPDIR %s", gate.AckChannel, tmp)
	}
	found := filepath.Join(base, "found")
	created, run, err := c.StartGated(ctx, Placement{}, Spawn{Argv: []string{"sh", "-c", `command -v tmux >"$0"; exit 3`, found}}, gate)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	if err := gate.Acknowledge(ctx); err != nil {
		t.Fatalf("the shell never listened for its ack: %v", err)
	}
	p := deadPane(ctx, t, c, created.Pane)
	if p.ExitStatus == nil || *p.ExitStatus != 3 {
		t.Errorf("exit %v, signal %v; want status 3", p.ExitStatus, p.ExitSignal)
	}
	if got, err := os.ReadFile(found); err != nil || strings.TrimSpace(string(got)) != old {
		t.Errorf("the pane's tmux is %q (%v), want the 3.5a binary %s", got, err, old)
	}

	// A created pane with no program runs tmux's default-command.
	made := filepath.Join(base, "made")
	if _, err := c.command(ctx, "set-option", "-g", "default-command", `printf 'made by %s\n' "default-command" >'`+made+`'; exit 4`); err != nil {
		t.Fatal(err)
	}
	madePane, run, err := c.CreateGated(ctx, "$0", Spawn{}, "n0nce", func(ctx context.Context, s Spawn) (Created, error) {
		return c.NewWindow(ctx, "$0", NewWindowOptions{Spawn: s})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	p = deadPane(ctx, t, c, madePane.Pane)
	if p.ExitStatus == nil || *p.ExitStatus != 4 {
		t.Errorf("exit %v, signal %v; want status 4 from the default-command", p.ExitStatus, p.ExitSignal)
	}
	if got, err := os.ReadFile(made); string(got) != "made by default-command\n" {
		t.Errorf("the default-command did not run: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a #(…) in the gate's path ran")
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "tmux-mcp-*")); len(left) != 0 {
		t.Errorf("gate directories left behind: %v", left)
	}
}

// deadPane waits (ten seconds at most) until pane p is dead and returns it.
func deadPane(ctx context.Context, t *testing.T, c *Client, p PaneID) Pane {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		pane, err := c.Pane(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if pane.Dead && !pane.Unreaped() {
			return pane
		}
		c.command(ctx, "run-shell", "true") // tmux 3.3a reaps only when it forks
	}
	t.Fatalf("pane %s did not die", p)
	return Pane{}
}

// BenchmarkGateShell measures what a gate adds to starting a program in
// a pane: the gating shell reading its FIFO (here a file holding the
// start) and exec'ing the program, against sh exec'ing it directly and
// against the in-pane tmux client the gates used before (`tmux wait-for`
// on a channel already signalled).
func BenchmarkGateShell(b *testing.B) {
	gate := filepath.Join(b.TempDir(), "go")
	if err := os.WriteFile(gate, []byte("1\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	sock := ""
	b.Run("sh-exec-true", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/sh", "-c", `exec "$@"`, RunnerName, "true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gate-fifo", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/sh", "-c", execShim, RunnerName, gate, "true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tmux-wait-for", func(b *testing.B) {
		if sock == "" {
			sock = benchServer(b)
		}
		bin, err := exec.LookPath("tmux")
		if err != nil {
			b.Skip("no tmux")
		}
		for b.Loop() {
			exec.Command(bin, "-S", sock, "wait-for", "-S", "g").Run()
			if err := exec.Command("/bin/sh", "-c", `"$1" -S "$2" wait-for g || exit 126; shift 2; exec "$@"`, RunnerName, bin, sock, "true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchServer(b *testing.B) string {
	dir, err := os.MkdirTemp("", "tmux-mcp-test-")
	if err != nil {
		b.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	b.Cleanup(func() {
		exec.Command("tmux", "-S", sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	if out, err := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "cat").CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	return sock
}

// A gated shell already waiting at its gate ends when the gate is given
// up (the pane of a command list that failed or was cancelled after tmux
// made it): its program never runs, and the pane does not stay.
func TestAbandonedGateEndsItsShell(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	tmuxtest.Run(t, sock, "set-option", "-g", "remain-on-exit", "on")
	ran := filepath.Join(t.TempDir(), "ran")
	for _, ack := range []bool{false, true} {
		gate, err := NewGate(ack, "n0nce")
		if err != nil {
			t.Fatal(err)
		}
		created, _, err := c.StartGated(ctx, Placement{}, Spawn{Argv: []string{"touch", ran}}, gate)
		if err != nil {
			t.Fatal(err)
		}
		// The shell opens its gate as it starts: wait until it waits there.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if cmd := strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "-t", string(created.Pane), "#{pane_current_command}")); cmd == "sh" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the gated shell never started")
			}
		}
		time.Sleep(50 * time.Millisecond)
		gate.Abandon()
		p := deadPane(ctx, t, c, created.Pane)
		if p.ExitStatus == nil || *p.ExitStatus != 126 {
			t.Errorf("ack %v: the abandoned shell ended with status %v, signal %v; want 126", ack, p.ExitStatus, p.ExitSignal)
		}
		if _, err := os.Stat(ran); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("ack %v: the program of an abandoned gate ran", ack)
		}
	}
}
