package tmuxctl

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// waitText reads s from off until it holds want or the deadline passes.
func waitText(t *testing.T, s *Stream, off int64, want string) Chunk {
	t.Helper()
	deadline := time.After(10 * time.Second)
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

func newTestHub(t *testing.T) (*Hub, *Client, string) {
	c, sock := client(t)
	h := NewHub(c, HubOptions{})
	t.Cleanup(h.Close)
	return h, c, sock
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
