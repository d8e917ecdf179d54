package live

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// newClient returns another client of the tmux server on sock, as another
// instance has.
func newClient(sock string) *tmuxctl.Client {
	return tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
}

// awaitTapRecorded waits until pane p's mark names the running tap of
// generation gen.
func awaitTapRecorded(t *testing.T, c *tmuxctl.Client, p tmuxctl.PaneID, gen [16]byte) {
	t.Helper()
	for deadline := time.Now().Add(eventBound); ; {
		pane, err := c.Pane(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		info, ok := parseTapMark(pane.PipeMark)
		if !ok || info.gen != gen {
			t.Fatalf("pane %s's tap (generation %x) has lost its mark: the pane is marked %q", p, gen, pane.PipeMark)
		}
		if info.pid != 0 && processAlive(info.pid) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s's tap never recorded itself", p)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An instance that types into a pane and exits at once (send_keys, then
// the end of its input) shuts its hub down before its own connection to
// the pane's stream is made. The stream stays the pane's, in the host:
// the next instance continues it, the same generation with every byte,
// instead of finding the pipe closed and starting a new stream at offset
// 0 (a golden saw "ltxc1.GEN.0" for "ltxc1.GEN.20" under -race).
func TestHostKeepsTheStreamOfAnOpenerThatLeft(t *testing.T) {
	h1, c, sock := newTapHub(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s1, err := h1.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s1.tap == nil {
		t.Fatal("pane %0 is not read through the stream host")
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo before-close", "Enter")
	h1.Close()
	pane, err := c.Pane(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := parseTapMark(pane.PipeMark); !ok || info.gen != s1.gen || !pane.Piped {
		t.Fatalf("once its opener has left, pane %%0 is marked %q (piped %v), not with its stream (generation %x)", pane.PipeMark, pane.Piped, s1.gen)
	}
	awaitTapRecorded(t, c, "%0", s1.gen)

	h2 := newHub(t, newClient(sock), Options{TapBinary: self})
	s2, err := h2.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s2.gen != s1.gen {
		t.Fatalf("the next instance reads pane %%0 from a new stream (generation %x), not the one its opener started (%x)", s2.gen, s1.gen)
	}
	waitText(t, s2, 0, "before-close")
}

// The start-up sweep of another instance leaves the panes of a running
// host alone: their pipes and marks stay, and the instance joins them.
func TestSweepLeavesAHostsPanes(t *testing.T) {
	h1, c, sock := newTapHub(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s1, err := h1.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo before-sweep", "Enter")
	h2 := newHub(t, newClient(sock), Options{TapBinary: self})
	if err := h2.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	pane, err := c.Pane(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := parseTapMark(pane.PipeMark); !ok || info.gen != s1.gen || !pane.Piped {
		t.Fatalf("after another instance's start-up sweep, pane %%0 is marked %q (piped %v), not with its stream (generation %x)", pane.PipeMark, pane.Piped, s1.gen)
	}
	s2, err := h2.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s2.gen != s1.gen {
		t.Fatalf("the second instance reads pane %%0 from a new stream (generation %x), not the host's (%x)", s2.gen, s1.gen)
	}
	waitText(t, s2, 0, "before-sweep")
	waitText(t, s1, 0, "before-sweep")
}
