package tmuxctl

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A program's window made with a CreationPipe is piped and marked by the
// command list that makes it: the relay gets the new pane's id where the
// placeholder stood, and everything else in it literally (tmux expands
// formats in a pipe's command); the pipe has the program's first byte;
// the window goes after the session's last one, even past a gap in its
// indexes (which a window made without the pipe takes).
func TestCreationPipeOpensWithTheWindow(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	tmuxtest.Run(t, sock, "new-window", "-d", "-t", "main:5", "sleep", "100")
	dir := t.TempDir()
	relay := `printf '%s #{session_name} 100%%\n' ` + ShellQuote("\x01") + ` >` + ShellQuote(filepath.Join(dir, "pane")) +
		`; exec cat >` + ShellQuote(filepath.Join(dir, "out"))
	pipe := c.LiveOps(livekey.Key{}).CreationPipe(relay, "\x01", "mark-1")
	if !pipe.usable() {
		t.Fatal("a relay with one placeholder was refused")
	}
	for _, where := range []Placement{{SessionName: "main"}, {}} {
		where.Pipe = pipe
		// An environment sends the commands through a file (source-file).
		env := map[string]string{"FIRST": "first-byte"}
		created, start, err := c.StartGated(ctx, where, Spawn{Argv: []string{"sh", "-c", `printf '%s\n' "$FIRST"; exec sleep 100`}, Env: env}, Gate{})
		if err != nil {
			t.Fatal(err)
		}
		if !created.Piped {
			t.Fatalf("%+v: the window was made without its pipe", where)
		}
		if err := start(ctx); err != nil {
			t.Fatal(err)
		}
		pane, err := c.Pane(ctx, created.Pane)
		if err != nil {
			t.Fatal(err)
		}
		if !pane.Piped || pane.PipeMark != "mark-1" {
			t.Errorf("%+v: pane %s piped %v, marked %q; want piped, marked mark-1", where, created.Pane, pane.Piped, pane.PipeMark)
		}
		want := string(created.Pane) + " #{session_name} 100%\n"
		if got := awaitFile(t, filepath.Join(dir, "pane"), want); got != want {
			t.Errorf("%+v: the relay printed %q, want %q", where, got, want)
		}
		if got := awaitFile(t, filepath.Join(dir, "out"), "first-byte\r\n"); got != "first-byte\r\n" {
			t.Errorf("%+v: the pipe took %q, want the program's first line", where, got)
		}
		windows := strings.Fields(tmuxtest.Run(t, sock, "list-windows", "-t", "="+created.SessionName, "-F", "#{window_index}"))
		if last, _ := strconv.Atoi(windows[len(windows)-1]); created.WindowIndex != last {
			t.Errorf("%+v: the window is at index %d of %v, want the last", where, created.WindowIndex, windows)
		}
		os.Remove(filepath.Join(dir, "pane"))
		os.Remove(filepath.Join(dir, "out"))
	}
	if created := mustStartGated(t, c, Placement{SessionName: "main"}); created.WindowIndex != 1 {
		t.Errorf("without a pipe the window is at %d, want the first free index, 1", created.WindowIndex)
	}
}

// A split, or a new session, is made without the pipe: the caller pipes it.
func TestCreationPipeOnlyForWindowsOfExistingSessions(t *testing.T) {
	c, _ := client(t)
	ctx := context.Background()
	pipe := c.LiveOps(livekey.Key{}).CreationPipe("exec cat >/dev/null \x01", "\x01", "mark-2")
	for _, where := range []Placement{{Split: "%0", Pipe: pipe}, {SessionName: "new-one", Pipe: pipe}} {
		created, start, err := c.StartGated(ctx, where, Spawn{Argv: []string{"sleep", "100"}}, Gate{})
		if err != nil {
			t.Fatal(err)
		}
		start(ctx)
		pane, err := c.Pane(ctx, created.Pane)
		if err != nil {
			t.Fatal(err)
		}
		if created.Piped || pane.Piped || pane.PipeMark != "" {
			t.Errorf("%+v: made piped (%v, %v, %q), want it left to the caller", where, created.Piped, pane.Piped, pane.PipeMark)
		}
	}
}

// A relay must hold its placeholder exactly once.
func TestCreationPipeWantsOnePlaceholder(t *testing.T) {
	ops := New(Config{}).LiveOps(livekey.Key{})
	for _, relay := range []string{"exec cat", "exec cat \x01 \x01"} {
		if p := ops.CreationPipe(relay, "\x01", "m"); p.usable() {
			t.Errorf("relay %q was taken", relay)
		}
	}
	if p := ops.CreationPipe("exec cat", "", "m"); p.usable() {
		t.Error("an empty placeholder was taken")
	}
}

func mustStartGated(t *testing.T, c *Client, where Placement) Created {
	t.Helper()
	ctx := context.Background()
	created, start, err := c.StartGated(ctx, where, Spawn{Argv: []string{"sleep", "100"}}, Gate{})
	if err != nil {
		t.Fatal(err)
	}
	if err := start(ctx); err != nil {
		t.Fatal(err)
	}
	return created
}

// awaitFile returns the content of path once it is want, or what it holds
// after ten seconds.
func awaitFile(t *testing.T, path, want string) string {
	t.Helper()
	var got []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got, _ = os.ReadFile(path); string(got) == want {
			break
		}
	}
	return string(got)
}
