package cli

import (
	"bufio"
	"context"
	"io"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// watch prints its lines as the events happen: the pane is watched, a
// typed command ends with its status, a pattern is printed, and the
// shell exits; each line comes before the next event is caused.
func TestWatchLines(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.MarkingBash(t, sock)
	r, w := io.Pipe()
	c := Lookup("watch")
	c.match = "needle"
	cfg := testConfig()
	cfg.SocketPath = sock
	env := Env{Config: cfg, Args: []string{"%1"}, Stdout: w, Stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- runWatch(ctx, c, env); w.Close() }()
	lines := bufio.NewScanner(r)
	next := func(want ...string) string {
		t.Helper()
		got := make(chan string, 1)
		go func() {
			if lines.Scan() {
				got <- lines.Text()
			}
			close(got)
		}()
		select {
		case line := <-got:
			for _, wl := range want {
				if line == wl {
					return line
				}
			}
			t.Fatalf("line %q, want one of %q", line, want)
		case <-time.After(30 * time.Second):
			t.Fatalf("no line, want %q", want)
		}
		return ""
	}
	// Whether bash has printed its first prompt yet decides the first
	// line's activity.
	next(`%1 watching`, `%1 watching activity="prompt"`)
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "(exit 7)", "Enter")
	next(`%1 command_ended status="7"`)
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "echo nee''dle; true", "Enter")
	// Two paths (the text, the marks): either may print first.
	both := []string{`%1 matched text="needle"`, `%1 command_ended status="0"`}
	if next(both...) == next(both...) {
		t.Fatalf("the same line twice, want %q", both)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "exit 3", "Enter")
	next(`%1 exited status="3"`)
	cancel()
	if got := <-done; got != exitOK {
		t.Fatalf("watch ended with %d", got)
	}
}

// watch says when a pane's program stops to ask, with its question, and
// asks again only after the pane has printed since.
func TestWatchSaysWhenInputIsWanted(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "sh", "-c",
		`printf 'Overwrite config? [y/N] '; read a; echo "got $a"; sleep 60`)
	r, w := io.Pipe()
	cfg := testConfig()
	cfg.SocketPath = sock
	env := Env{Config: cfg, Args: []string{"%1"}, Stdout: w, Stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- runWatch(ctx, Lookup("watch"), env); w.Close() }()
	lines := make(chan string)
	go func() {
		s := bufio.NewScanner(r)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	next := func() string {
		t.Helper()
		select {
		case line := <-lines:
			return line
		case <-time.After(30 * time.Second):
			t.Fatal("no line")
		}
		return ""
	}
	if line := next(); line != `%1 watching` {
		t.Fatalf("first line %q", line)
	}
	if line, want := next(), `%1 awaiting_input prompt="Overwrite config? [y/N]"`; line != want {
		t.Fatalf("line %q, want %q", line, want)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "y", "Enter")
	// The program sleeps now: no second question may come.
	select {
	case line := <-lines:
		t.Fatalf("after the answer: %q", line)
	case <-time.After(2 * time.Second):
	}
	cancel()
	if got := <-done; got != exitOK {
		t.Fatalf("watch ended with %d", got)
	}
}
