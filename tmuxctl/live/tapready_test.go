package live

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A tap that says it listens wakes the dial waiting for its generation,
// and only that one; what is not a generation is ignored.
func TestReadySocketWakesTheDialOfItsGeneration(t *testing.T) {
	c, _ := client(t)
	h := newHub(t, c, Options{})
	gen1, gen2 := [16]byte{1}, [16]byte{2}
	path, ready1, forget1 := h.expectTap(gen1)
	defer forget1()
	_, ready2, forget2 := h.expectTap(gen2)
	defer forget2()
	if path == "" || !strings.HasPrefix(path, h.Dir()) {
		t.Fatalf("ready socket %q, want one in the hub's directory %s", path, h.Dir())
	}
	if cmd := h.tapCommand("%0", gen1, "/x/s.sock", path); !strings.Contains(cmd, " --ready '"+path+"'") {
		t.Fatalf("tap command %q does not name the ready socket", cmd)
	}
	send := func(b []byte) {
		conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	send([]byte("not a generation"))
	send([]byte(strings.Repeat("zz", 16)))
	tellReady(path, gen1)
	select {
	case <-ready1:
	case <-time.After(eventBound):
		t.Fatal("the tap of generation 1 said it listens, but its dial was not woken")
	}
	select {
	case <-ready2:
		t.Fatal("the dial of generation 2 was woken by another tap's word")
	case <-time.After(50 * time.Millisecond):
	}
	tellReady(path, gen2)
	select {
	case <-ready2:
	case <-time.After(eventBound):
		t.Fatal("the tap of generation 2 said it listens, but its dial was not woken")
	}
}

// A tap the hub starts says it listens: its dial is woken, not polled.
func TestTapSaysItListens(t *testing.T) {
	h, _, _ := newTapHub(t)
	s, err := h.Watch(context.Background(), "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s.tap == nil {
		t.Fatal("pane %0 is not read through a tap")
	}
	<-s.tap.joined
	b := &h.readyBoard
	b.mu.Lock()
	woken, waiting := b.woken, len(b.waiting)
	b.mu.Unlock()
	if woken != 1 || waiting != 0 {
		t.Fatalf("after the tap was joined: %d dials woken (want 1), %d still waiting (want 0)", woken, waiting)
	}
}

// Without a ready socket (a hub whose directory's path is too long for
// one) the dial polls: the path is empty, the channel never closes, and
// the tap, given no socket, tells nobody.
func TestNoReadySocketMeansPolling(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	if err := os.Mkdir(long, 0o700); err != nil {
		t.Fatal(err)
	}
	c, _ := client(t) // its tmux socket's path must stay short
	t.Setenv("TMPDIR", long)
	h := newHub(t, c, Options{})
	path, ready, forget := h.expectTap([16]byte{3})
	defer forget()
	if path != "" {
		t.Fatalf("ready socket %q in a directory too long for one", path)
	}
	if cmd := h.tapCommand("%0", [16]byte{3}, "/x/s.sock", path); strings.Contains(cmd, "--ready") {
		t.Fatalf("tap command %q names a ready socket that does not exist", cmd)
	}
	tellReady(path, [16]byte{3}) // must not fail
	select {
	case <-ready:
		t.Fatal("a dial without a ready socket was woken")
	case <-time.After(20 * time.Millisecond):
	}
}

// Closing the hub ends the ready socket's reader with the other
// goroutines, and a later wait gets a channel that never closes.
func TestReadySocketEndsWithTheHub(t *testing.T) {
	c, _ := client(t)
	h := newHub(t, c, Options{})
	path, _, forget := h.expectTap([16]byte{4})
	forget()
	h.Close()
	if _, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: path, Net: "unixgram"}); err == nil {
		t.Fatal("the ready socket still answers after the hub closed")
	}
	_, ready, forget := h.expectTap([16]byte{5})
	defer forget()
	tellReady(path, [16]byte{5})
	select {
	case <-ready:
		t.Fatal("a closed hub's dial was woken")
	case <-time.After(20 * time.Millisecond):
	}
}
