package live

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestNoClientAttachedAndNoResize watches and holds panes of a 100x30
// session: no client ever shows in list-clients and the window keeps its
// size (tmux 3.2a resized it to 80x23 under a control client).
func TestNoClientAttachedAndNoResize(t *testing.T) {
	c, sock := client(t)
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "big", "-x", "100", "-y", "30", "/bin/sh")
	// tmux 3.2a makes a detached session's window 80x23 whatever -x and -y
	// say; resize-window sets the size on every version.
	tmuxtest.Run(t, sock, "resize-window", "-t", "big", "-x", "100", "-y", "30")
	h := newHub(t, c, Options{})
	ctx := context.Background()
	p := tmuxctl.PaneID(strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "-t", "big", "#{pane_id}")))
	s, err := h.Watch(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	release, err := h.Exits().Hold(ctx, p, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	off := s.End()
	// wat""ched: the typed line, which the terminal echoes (before the
	// shell's first prompt too), is not the output.
	tmuxtest.Run(t, sock, "send-keys", "-t", string(p), `echo wat""ched`, "Enter")
	waitText(t, s, off, "watched\n")
	if clients := tmuxtest.Run(t, sock, "list-clients"); clients != "" {
		t.Errorf("clients attached while streams are live:\n%s", clients)
	}
	if size := strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "-t", string(p), "#{window_width}x#{window_height}")); size != "100x30" {
		t.Errorf("window size is %s, want 100x30", size)
	}
}

// TestUserPipeIsNeverTouched gives a pane a pipe of the user's: watching it
// is refused with a reason, and the user's pipe keeps working.
func TestUserPipeIsNeverTouched(t *testing.T) {
	h, _, sock := newTestHub(t)
	ctx := context.Background()
	log := filepath.Join(t.TempDir(), "log")
	tmuxtest.Run(t, sock, "pipe-pane", "-o", "-t", "%0", "cat >> "+log)
	_, err := h.Watch(ctx, "%0")
	var taken *tmuxctl.PipeTakenError
	if !errors.As(err, &taken) {
		t.Fatalf("Watch of a pane the user pipes = %v, want a PipeTakenError", err)
	}
	// The typed line (echoed by the terminal, even before the shell's
	// first prompt) is not the output: "still""-logged" prints still-logged.
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", `echo still""-logged`, "Enter")
	waitFile(t, log, "still-logged")
	if got := tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "#{pane_pipe}[#{@tmux-mcp-pipe}]"); got != "1[]\n" {
		t.Errorf("pipe state %q, want the user's pipe and no mark", got)
	}
}

// TestReplacedPipeEndsStream replaces the stream's pipe with one of the
// user's: the stream fails, and neither it nor the hub's Close touches the
// user's pipe.
func TestReplacedPipeEndsStream(t *testing.T) {
	c, sock := client(t)
	h, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	s, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	changed := s.Changed()
	log := filepath.Join(t.TempDir(), "log")
	tmuxtest.Run(t, sock, "pipe-pane", "-t", "%0", "cat >> "+log)
	for s.valid() {
		select {
		case <-changed:
			changed = s.Changed()
		case <-time.After(2 * eventBound):
			t.Fatal("the stream never noticed its pipe was replaced")
		}
	}
	if _, f := s.State(); f != ConnectionLost {
		t.Errorf("failure %q, want %q", f, ConnectionLost)
	}
	h.Close()
	// The typed line is not the output (see TestUserPipeIsNeverTouched):
	// a line typed before the shell's first prompt is echoed before it.
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", `echo user""-pipe`, "Enter")
	waitFile(t, log, "user-pipe")
	if got := tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "#{pane_pipe}[#{@tmux-mcp-pipe}]"); got != "1[]\n" {
		t.Errorf("pipe state %q, want the user's pipe and no mark", got)
	}
}

// TestCloseLeavesNothing closes a hub that watched and held panes: every
// pipe is closed, remain-on-exit is back, the hook entry and the private
// directory are gone.
func TestCloseLeavesNothing(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	c, sock := client(t)
	tmuxtest.Run(t, sock, "split-window", "-t", "%0", "/bin/sh")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%1", "remain-on-exit", "off")
	h, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []tmuxctl.PaneID{"%0", "%1"} {
		if _, err := h.Watch(ctx, p); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Exits().Hold(ctx, p, false, false); err != nil {
			t.Fatal(err)
		}
	}
	if hooks := tmuxtest.Run(t, sock, "show-hooks", "-g", "pane-died"); !strings.Contains(hooks, deathChannelPrefix) {
		t.Fatalf("no death hook while holding: %q", hooks)
	}
	h.Close()
	checkNoTraces(t, sock)
	if v := tmuxtest.Run(t, sock, "show-options", "-p", "-t", "%0", "remain-on-exit"); v != "" {
		t.Errorf("%%0 remain-on-exit %q, want unset", v)
	}
	if v := tmuxtest.Run(t, sock, "show-options", "-p", "-t", "%1", "remain-on-exit"); v != "remain-on-exit off\n" {
		t.Errorf("%%1 remain-on-exit %q, want off", v)
	}
}

// TestSweepRemovesDeadInstanceTraces plants what a killed instance leaves
// (a marked pipe, a held pane, a hook entry, a private directory) and
// checks that a new hub removes it all, and leaves a live instance's marks.
func TestSweepRemovesDeadInstanceTraces(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	c, sock := client(t)
	dead := deadPID(t)
	tmuxtest.Run(t, sock, "split-window", "-t", "%0", "/bin/sh")
	tmuxtest.Run(t, sock, "split-window", "-t", "%0", "/bin/sh")
	// %0: a pipe of the dead instance.
	log := filepath.Join(tmp, "relay-out")
	tmuxtest.Run(t, sock, "pipe-pane", "-t", "%0", "cat >> "+log)
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", tmuxctl.PipeOption, dead+".aaaa.bbbb")
	// %1: held by the dead instance, whose user had no remain-on-exit.
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%1", "remain-on-exit", "on")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%1", tmuxctl.HoldOption, dead+".aaaa.cccc -")
	// %2: held by a live instance (this test), which must be left alone.
	live := strconv.Itoa(os.Getpid()) + ".ffff.dddd"
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%2", tmuxctl.HoldOption, live+" =off")
	tmuxtest.Run(t, sock, "set-hook", "-g", "pane-died[4242]", "wait-for -S "+deathChannelPrefix+dead+"-abcdef")
	stale := filepath.Join(tmp, instanceDirPrefix+dead+"-123")
	if err := os.MkdirAll(filepath.Join(stale, "x"), 0o700); err != nil {
		t.Fatal(err)
	}

	h := newHub(t, c, Options{})
	if err := h.ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "#{pane_pipe}[#{@tmux-mcp-pipe}]"); got != "0[]\n" {
		t.Errorf("%%0 pipe state %q after the sweep, want closed and unmarked", got)
	}
	if got := tmuxtest.Run(t, sock, "show-options", "-p", "-t", "%1"); strings.Contains(got, "remain-on-exit") || strings.Contains(got, "@tmux-mcp") {
		t.Errorf("%%1 options after the sweep:\n%s", got)
	}
	if got := tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%2", "#{@tmux-mcp-hold}"); got != live+" =off\n" {
		t.Errorf("a live instance's hold was touched: %q", got)
	}
	if hooks := tmuxtest.Run(t, sock, "show-hooks", "-g", "pane-died"); strings.Contains(hooks, "4242") {
		t.Errorf("the dead instance's hook entry stayed: %q", hooks)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the dead instance's directory stayed: %v", err)
	}
}

// deadPID returns the process id of a process that has ended.
func deadPID(t *testing.T) string {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(cmd.Process.Pid)
}

// checkNoTraces fails if any pane has a pipe or a tmux-mcp option, or the
// global pane-died hook has a tmux-mcp entry.
func checkNoTraces(t *testing.T, sock string) {
	t.Helper()
	panes := tmuxtest.Run(t, sock, "list-panes", "-a", "-F", "#{pane_id} pipe=#{pane_pipe} [#{@tmux-mcp-pipe}] [#{@tmux-mcp-hold}]")
	for _, line := range strings.Split(strings.TrimSpace(panes), "\n") {
		if !strings.HasSuffix(line, " pipe=0 [] []") {
			t.Errorf("pane left with a trace: %s", line)
		}
	}
	if hooks := tmuxtest.Run(t, sock, "show-hooks", "-g", "pane-died"); strings.Contains(hooks, "tmux-mcp") {
		t.Errorf("hook entry left: %q", hooks)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), instanceDirPrefix+"[0-9]*")); len(left) > 0 {
		t.Errorf("private directories left: %v", left)
	}
}

// waitFile waits until the file at path contains want.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q; it holds %q", path, want, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
