package live

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// Bounds of the live tests: generous, so a loaded machine passes.
const (
	// eventBound is how long output, a death or a pipe's end may take to
	// reach a stream.
	eventBound = 10 * time.Second
	// reapRetry is how often a test makes tmux reap while waiting for a
	// death tmux 3.3a may not have noticed yet.
	reapRetry = 2 * time.Second
)

// waitText reads s from off until it holds want or the deadline passes.
func waitText(t *testing.T, s *Stream, off int64, want string) Chunk {
	t.Helper()
	deadline := time.After(eventBound)
	for {
		changed := s.Changed()
		c, err := s.Read(off)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(c.Text), want) {
			return c
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("stream of %s never showed %q; it holds %q (dead %v, failed %q)", s.Pane(), want, c.Text, c.Dead, c.Failed)
		}
	}
}

// awaitEnd waits until stream s has received up to offset end.
func awaitEnd(t *testing.T, s *Stream, end int64) {
	t.Helper()
	deadline := time.After(eventBound)
	for {
		changed := s.Changed()
		if s.End() >= end {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("stream of %s reached offset %d, want %d", s.Pane(), s.End(), end)
		}
	}
}

// client returns a command client for a new private tmux server.
func client(t *testing.T) (*tmuxctl.Client, string) {
	sock := tmuxtest.Server(t)
	return tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock}), sock
}

func newHub(t *testing.T, c *tmuxctl.Client, o Options) *Hub {
	t.Helper()
	h, err := New(c, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func newTestHub(t *testing.T) (*Hub, *tmuxctl.Client, string) {
	c, sock := client(t)
	return newHub(t, c, Options{}), c, sock
}

func TestStreamReceivesOutput(t *testing.T) {
	h, _, sock := newTestHub(t)
	ctx := context.Background()
	start := time.Now()
	s, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("watch took %v", time.Since(start))
	off := s.End()
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "printf 'a\\033[31mred\\033[0m\\r\\nb\\n'", "Enter")
	c := waitText(t, s, off, "ared\nb\n")
	if strings.Contains(string(c.Text), "\x1b") {
		t.Errorf("escape left in %q", c.Text)
	}
}

// TestCursorSurvivesTopologyChanges holds a stream position while the
// session is split, resized, given new windows, renamed and re-laid out,
// then continues from it without loss.
func TestCursorSurvivesTopologyChanges(t *testing.T) {
	h, _, sock := newTestHub(t)
	ctx := context.Background()
	s, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	// The typed line does not hold what it prints, so the output line is
	// found whether the shell's first prompt came before the typing's echo
	// or after it (a shell slow to start: "echo before\n# before\n# ").
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo bef''ore", "Enter")
	c := waitText(t, s, 0, "before\n")
	held := c.End

	for _, args := range [][]string{
		{"split-window", "-t", "%0", "-h"},
		{"split-window", "-t", "%0", "-v"},
		{"resize-pane", "-t", "%0", "-x", "30"},
		{"resize-window", "-t", "main", "-x", "120", "-y", "40"},
		{"new-window", "-t", "main:"},
		{"kill-window", "-t", "main:1"},
		{"rename-window", "-t", "main:0", "renamed"},
		{"rename-session", "-t", "main", "main2"},
		{"select-layout", "-t", "main2:0", "tiled"},
		{"kill-pane", "-t", "%1"},
	} {
		tmuxtest.Run(t, sock, args...)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo after", "Enter")
	c = waitText(t, s, held, "after\n")
	if c.Missed != 0 || c.Failed != "" || c.Dead {
		t.Errorf("after topology changes: missed %d, failed %q, dead %v", c.Missed, c.Failed, c.Dead)
	}
	if strings.Contains(string(c.Text), "before") {
		t.Errorf("continuing from the held cursor repeated old output: %q", c.Text)
	}
	if dead, failure := s.State(); dead || failure != "" {
		t.Errorf("stream state dead=%v failure=%q", dead, failure)
	}
}

// TestMovedPaneIsFollowed moves a watched pane into another session: its
// pipe goes with it, so its output keeps arriving on the same stream with
// nothing lost.
func TestMovedPaneIsFollowed(t *testing.T) {
	h, _, sock := newTestHub(t)
	ctx := context.Background()
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "other", "/bin/sh")
	tmuxtest.Run(t, sock, "split-window", "-t", "main:0", "/bin/sh") // %2 in main
	s, err := h.Watch(ctx, "%2")
	if err != nil {
		t.Fatal(err)
	}
	off := s.End()
	tmuxtest.Run(t, sock, "move-pane", "-s", "%2", "-t", "other:0")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%2", "echo moved", "Enter")
	c := waitText(t, s, off, "moved\n")
	if c.Failed != "" || c.Dead || c.Missed != 0 {
		t.Errorf("moved pane: failed %q dead %v missed %d", c.Failed, c.Dead, c.Missed)
	}
}

func TestPaneDeathIsNoticed(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(map[bool]string{false: "closes", true: "remain-on-exit"}[keep], func(t *testing.T) {
			h, c, sock := newTestHub(t)
			ctx := context.Background()
			if keep {
				tmuxtest.Run(t, sock, "set-option", "-g", "remain-on-exit", "on")
			}
			created, err := c.NewWindow(ctx, "$0", tmuxctl.NewWindowOptions{Spawn: tmuxctl.Spawn{Argv: []string{"sh", "-c", "read x; echo bye $x; read y"}}})
			if err != nil {
				t.Fatal(err)
			}
			s, err := h.Watch(ctx, created.Pane)
			if err != nil {
				t.Fatal(err)
			}
			off := s.End()
			tmuxtest.Run(t, sock, "send-keys", "-t", string(created.Pane), "now", "Enter")
			waitText(t, s, off, "bye now\n")
			tmuxtest.Run(t, sock, "send-keys", "-t", string(created.Pane), "Enter")
			deadline := time.After(eventBound)
			for {
				changed := s.Changed()
				ch, _ := s.Read(off)
				if ch.Dead {
					if !strings.Contains(string(ch.Text), "bye now") {
						t.Errorf("last output lost: %q", ch.Text)
					}
					return
				}
				select {
				case <-changed:
				case <-time.After(reapRetry):
					// The safety net waits use: tmux 3.3a now and then
					// misses an exit until it next reaps a child.
					h.CheckPane(ctx, created.Pane)
				case <-deadline:
					t.Fatalf("death never noticed; text %q", ch.Text)
				}
			}
		})
	}
}

func TestServerDeathLosesConnection(t *testing.T) {
	h, _, sock := newTestHub(t)
	ctx := context.Background()
	s, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	changed := s.Changed()
	tmuxtest.Run(t, sock, "kill-server")
	deadline := time.After(eventBound)
	for {
		dead, failure := s.State()
		if failure != "" || dead {
			// Either reading is honest: the session's panes died with it,
			// or the connection was lost.
			return
		}
		select {
		case <-changed:
			changed = s.Changed()
		case <-deadline:
			t.Fatal("stream never learned its server died")
		}
	}
}

func TestExpiry(t *testing.T) {
	c, sock := client(t)
	h := newHub(t, c, Options{Idle: 100 * time.Millisecond})
	s, err := h.Watch(context.Background(), "%0")
	if err != nil {
		t.Fatal(err)
	}
	gen := s.gen
	deadline := time.After(eventBound)
	for {
		changed := s.Changed()
		if _, f := s.State(); f == Expired {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("stream never expired")
		}
	}
	if _, f, ok := h.Lookup(gen); ok || f != Expired {
		t.Errorf("Lookup of expired generation = %q, %v", f, ok)
	}
	// The expired stream's pipe is closed and unmarked.
	waitTmux(t, sock, "%0", "#{pane_pipe}#{@tmux-mcp-pipe}", "0")
	s2, err := h.Watch(context.Background(), "%0")
	if err != nil || s2 == s {
		t.Errorf("watching again must start a new stream: %v", err)
	}
}

// TestClaimAfterTimerFiredKeepsStream: a claim (a watch or lookup finding
// the stream) that lands after the idle timer fired, before the expiry
// ran, keeps the stream: the expiry finds it touched and lets the
// restarted timer decide. (TestStress at load saw a wait's stream expire
// this way.)
func TestClaimAfterTimerFiredKeepsStream(t *testing.T) {
	h := &Hub{opts: Options{Idle: time.Hour}}
	s := newStream(h, "%0", 1024)
	s.touch() // the idle clock runs
	defer s.expiry.Stop()
	if !s.claim() {
		t.Fatal("a fresh stream could not be claimed")
	}
	// Its timer has fired just before the claim: the expiry runs now.
	if s.idleExpired() {
		t.Fatal("a stream claimed after its timer fired expired")
	}
	if !s.claim() {
		t.Fatal("the claimed stream was left expiring")
	}
}

// TestStressMissedBytesExact prints 8 MiB between two reads of a 1 MiB
// stream and checks the missed count and the retained tail exactly.
func TestStressMissedBytesExact(t *testing.T) {
	h, c, sock := newTestHub(t)
	ctx := context.Background()
	const lines = 8 * 1024 // 8 MiB of 1 KiB lines
	// The pane runs the test's tmux ($TB): an older one on PATH cannot
	// talk to a 3.6a or later server.
	script := `i=0; while [ $i -lt ` + "8192" + ` ]; do printf '%01023d\n' $i; i=$((i+1)); done; "$TB" -S "$SOCK" wait-for -S printed; exec cat`
	created, err := c.NewWindow(ctx, "$0", tmuxctl.NewWindowOptions{Spawn: tmuxctl.Spawn{
		Argv: []string{"sh", "-c", `"$TB" -S "$SOCK" wait-for go; ` + script},
		Env:  map[string]string{"SOCK": sock, "TB": tmuxtest.Binary()},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.Watch(ctx, created.Pane)
	if err != nil {
		t.Fatal(err)
	}
	off := s.End()
	tmuxtest.Run(t, sock, "wait-for", "-S", "go")
	tmuxtest.Run(t, sock, "wait-for", "printed")
	// The last line is in the stream once its newline is. Waited for by
	// the stream's end, not by reading the ring on every change: 8 MiB
	// come in thousands of changes, and reading 1 MiB at each starved the
	// relay on a loaded machine.
	last := strings.Repeat("0", 1023-4) + "8191\n"
	total := int64(lines * 1024)
	awaitEnd(t, s, off+total)
	ch := waitText(t, s, off, last)
	if got := ch.End - off; got != total {
		t.Fatalf("stream advanced %d bytes, want exactly %d", got, total)
	}
	if int64(len(ch.Text))+ch.Missed != total {
		t.Errorf("text %d + missed %d != %d", len(ch.Text), ch.Missed, total)
	}
	if len(ch.Text) != 1<<20 || ch.MarkAfter {
		t.Errorf("retained %d bytes (mark %v), want the full 1 MiB ring", len(ch.Text), ch.MarkAfter)
	}
	if !strings.HasSuffix(string(ch.Text), last) {
		t.Errorf("tail wrong: %q", ch.Text[len(ch.Text)-40:])
	}
	// Every retained line is whole and in order after the first cut one.
	body := string(ch.Text)
	body = body[strings.IndexByte(body, '\n')+1:]
	for i, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if len(line) != 1023 {
			t.Fatalf("line %d has %d bytes", i, len(line))
		}
	}
}

// TestStartedProgramClosesWhenDone starts a program nobody waits on: its
// exit is still recorded, and its pane closes as tmux would have closed it.
func TestStartedProgramClosesWhenDone(t *testing.T) {
	h, c, sock := newTestHub(t)
	tr := h.Exits()
	ctx := context.Background()
	created, start, err := c.StartGated(ctx, tmuxctl.Placement{}, tmuxctl.Spawn{Argv: []string{"sh", "-c", "read x; exit 5"}}, tmuxctl.Gate{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.WatchPiped(ctx, created.Pane, tmuxctl.Gate{})
	if err != nil {
		t.Fatal(err)
	}
	release, err := tr.Hold(ctx, created.Pane, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := start(ctx); err != nil {
		t.Fatal(err)
	}
	release() // nobody waits from here on
	tmuxtest.Run(t, sock, "send-keys", "-t", string(created.Pane), "Enter")
	select {
	case <-s.Drained():
	case <-time.After(eventBound):
		t.Fatal("the pane's pipe never ended")
	}
	// The pipe ends when the pane dies (the stream closes it); the tracker
	// closes the pane right after.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := c.Pane(ctx, created.Pane); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the dead pane is still there")
		}
	}
	if e, ok := tr.Recorded(ctx, created.Pane); !ok || e.Status == nil || *e.Status != 5 {
		t.Errorf("recorded exit = %+v, %v; want status 5", e, ok)
	}
}

// waitTmux waits until format, expanded for pane p, reads want.
func waitTmux(t *testing.T, sock string, p tmuxctl.PaneID, format, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "-t", string(p), format))
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s of %s reads %q, want %q", format, p, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
