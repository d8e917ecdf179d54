package live

import (
	"fmt"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// closeBound is how long Hub.Close may take before a test calls it hung:
// its own tmux work is bounded by closeTimeout, and the readers are
// waited for a second after that.
const closeBound = closeTimeout + 5*time.Second

// TestCloseReturnsWhenRelayNeverConnected starts a pane stream's FIFO
// reader the way a watch does, but no relay ever opens the FIFO (as when
// the pane dies before tmux has run the pipe command): the reader stays
// blocked opening it. Close must still end that reader and return.
func TestCloseReturnsWhenRelayNeverConnected(t *testing.T) {
	c, _ := client(t)
	h, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	<-h.swept
	f, err := h.newFIFO(fmt.Sprintf("%s/pane0-never", h.dir))
	if err != nil {
		t.Fatal(err)
	}
	s := newStream(h, "%0", 1<<10)
	if !h.startFeeding(s, f, tmuxctl.Gate{}) {
		t.Fatal("the hub refused to start a reader before Close")
	}

	closed := make(chan struct{})
	start := time.Now()
	go func() {
		h.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Logf("Close returned after %v", time.Since(start))
	case <-time.After(closeBound):
		t.Fatalf("Close has not returned after %v: the FIFO reader whose relay never connected was not ended", closeBound)
	}
	select {
	case <-s.Drained():
	default:
		t.Error("the stream's pipe is not marked ended after Close")
	}
}
