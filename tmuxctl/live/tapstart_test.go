package live

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// slowTap returns a tap binary that starts only once release is called:
// a shell that waits on a FIFO, then runs this test binary as the tap —
// a race-built tap on a loaded machine, which takes a second or more
// between tmux starting it and its listening.
func slowTap(t *testing.T) (bin string, release func()) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gate := filepath.Join(dir, "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, "slow-tap")
	script := "#!/bin/sh\nread -r _ <" + tmuxctl.ShellQuote(gate) + "\nexec " + tmuxctl.ShellQuote(self) + ` "$@"` + "\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	released := false
	release = func() {
		t.Helper()
		if released {
			return
		}
		released = true
		// The shell may not have opened the FIFO yet: an open for writing
		// that does not block fails (ENXIO) until it has.
		for deadline := time.Now().Add(eventBound); ; {
			f, err := os.OpenFile(gate, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			if err == nil {
				f.Close()
				return
			}
			if !errors.Is(err, syscall.ENXIO) || time.Now().After(deadline) {
				t.Fatalf("releasing the tap: %v", err)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	t.Cleanup(release)
	return bin, release
}

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

// A startingTap is pane %0 watched by a first instance's hub through a
// tap that has not started yet (see slowTap), with text typed into it.
type startingTap struct {
	c       *tmuxctl.Client
	sock    string
	self    string // this test binary, the tap of later instances
	h1      *Hub
	s1      *Stream
	release func() // lets the tap start
}

func watchStartingTap(t *testing.T, typed string) startingTap {
	t.Helper()
	bin, release := slowTap(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, sock := client(t)
	h1 := newHub(t, c, Options{TapBinary: bin})
	s1, err := h1.Watch(context.Background(), "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s1.tap == nil {
		t.Fatal("pane %0 is not read through a tap")
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo "+typed, "Enter")
	return startingTap{c: c, sock: sock, self: self, h1: h1, s1: s1, release: release}
}

// An instance that types into a pane and exits at once (send_keys, then
// the end of its input) shuts its hub down while the tap it started is
// still starting. The tap stays the pane's: the next instance continues
// its stream, the same generation with every byte, instead of finding
// the pipe closed and starting a new tap at offset 0 (a golden saw
// "ltxc1.GEN.0" for "ltxc1.GEN.20" under -race).
func TestTapOutlivesAnOpenerThatLeftBeforeItStarted(t *testing.T) {
	st := watchStartingTap(t, "before-close")
	c, sock, self, h1, s1, release := st.c, st.sock, st.self, st.h1, st.s1, st.release // h1 is closed here, and again (a no-op) at the end
	ctx := context.Background()
	// The hub is held between the two steps of its Close, where a
	// server's goes on for a while (its death listener stops): closed,
	// its dial given up, its context not cancelled yet.
	streams, listener, _ := h1.beginClose()
	gaveUp := make(chan struct{})
	go func() {
		h1.wg.Wait()
		close(gaveUp)
	}()
	select {
	case <-gaveUp:
	case <-time.After(eventBound):
		t.Error("the closed hub's dial never gave up")
	}
	h1.finishClose(streams, listener)
	pane, err := c.Pane(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := parseTapMark(pane.PipeMark); !ok || info.gen != s1.gen || !pane.Piped {
		t.Fatalf("once its opener has left, pane %%0 is marked %q (piped %v), not with its starting tap (generation %x)", pane.PipeMark, pane.Piped, s1.gen)
	}
	release()
	awaitTapRecorded(t, c, "%0", s1.gen)

	h2 := newHub(t, newClient(sock), Options{TapBinary: self})
	s2, err := h2.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s2.gen != s1.gen {
		t.Fatalf("the next instance reads pane %%0 from a new tap (generation %x), not the one its opener started (%x)", s2.gen, s1.gen)
	}
	waitText(t, s2, 0, "before-close")
}

// A tap that has not listened yet when another instance starts (a pane
// mark without a pid, a socket that does not answer, for longer than the
// sweep asks) is starting, not dead: the start-up sweep leaves its pipe
// and mark, and the instance then joins it.
func TestSweepLeavesAStartingTap(t *testing.T) {
	st := watchStartingTap(t, "before-sweep")
	c, sock, self, s1, release := st.c, st.sock, st.self, st.s1, st.release
	ctx := context.Background()

	h2 := newHub(t, newClient(sock), Options{TapBinary: self})
	if err := h2.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	pane, err := c.Pane(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := parseTapMark(pane.PipeMark); !ok || info.gen != s1.gen || !pane.Piped {
		t.Fatalf("after another instance's start-up sweep, pane %%0 is marked %q (piped %v), not with its starting tap (generation %x)", pane.PipeMark, pane.Piped, s1.gen)
	}
	release()
	s2, err := h2.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s2.gen != s1.gen {
		t.Fatalf("the second instance reads pane %%0 from a new tap (generation %x), not the starting one (%x)", s2.gen, s1.gen)
	}
	waitText(t, s2, 0, "before-sweep")
	waitText(t, s1, 0, "before-sweep")
}
