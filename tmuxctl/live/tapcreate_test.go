package live

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// A program's pane made with a prepared tap is read through that tap from
// its first byte: the pane is marked with the stream's generation and the
// running host, and the program's exit marker is acked, so its shell
// ends the way the program did.
func TestPreparedTapReadsTheNewPane(t *testing.T) {
	h, c, _ := newTapHub(t)
	ctx := context.Background()
	tap := h.PrepareTap()
	if tap == nil {
		t.Fatal("a hub with a tap binary prepared no tap")
	}
	gate, err := tmuxctl.NewGate(true, "n0nce-prepared")
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"sh", "-c", "printf 'first %s\\n' line; exit 7"}
	created, start, err := c.StartGated(ctx, tmuxctl.Placement{Pipe: tap.Pipe()}, tmuxctl.Spawn{Argv: argv}, gate)
	if err != nil {
		t.Fatal(err)
	}
	if !created.Piped {
		t.Fatal("the pane was made without the tap's pipe")
	}
	s, err := h.WatchCreated(ctx, created, gate, tap)
	if err != nil {
		t.Fatal(err)
	}
	if s.tap == nil {
		t.Fatal("the pane is not read through a tap")
	}
	// The mark is read while the program waits on its gate: once it has
	// exited (and its exit was read) the pane closes.
	pane, err := c.Pane(ctx, created.Pane)
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := parseTapMark(pane.PipeMark); !ok || info.gen != s.gen || !isHostSocket(info.socket) || info.pid == 0 || !processAlive(info.pid) {
		t.Errorf("pane marked %q, want the running stream host's stream of generation %x", pane.PipeMark, s.gen)
	}
	if err := start(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(eventBound)
	for {
		changed := s.Changed()
		if m, ok := s.FindMarker("n0nce-prepared", frame.Exit); ok {
			if m.Status != 7 {
				t.Errorf("exit marker status %d, want 7", m.Status)
			}
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("the program's exit marker never came")
		}
	}
	chunk, err := s.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(chunk.Text), "first line") {
		t.Errorf("the stream starts %q, want the program's first line", chunk.Text)
	}
	if h.stream(created.Pane) != s {
		t.Error("the hub does not hold the pane's stream")
	}
}

// Without a tap binary there is nothing to prepare: the pane is watched
// the ordinary way.
func TestNoPreparedTapWithoutATapBinary(t *testing.T) {
	c, _ := client(t)
	h := newHub(t, c, Options{})
	if tap := h.PrepareTap(); tap != nil {
		t.Fatal("a hub without a tap binary prepared a tap")
	}
	created, start, err := c.StartGated(context.Background(), tmuxctl.Placement{}, tmuxctl.Spawn{Argv: []string{"sleep", "100"}}, tmuxctl.Gate{})
	if err != nil {
		t.Fatal(err)
	}
	defer start(context.Background())
	s, err := h.WatchCreated(context.Background(), created, tmuxctl.Gate{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.tap != nil {
		t.Error("a FIFO hub's stream has a tap")
	}
}
