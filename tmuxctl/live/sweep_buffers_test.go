package live

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestSweepRemovesDeadInstancePasteBuffers plants the private paste buffer
// of a killed instance, one of a live instance and a buffer of the user's,
// and checks that a new hub deletes only the first.
func TestSweepRemovesDeadInstancePasteBuffers(t *testing.T) {
	c, sock := client(t)
	dead := tmuxctl.PasteBufferPrefix + deadPID(t) + "-abcd"
	live := tmuxctl.PasteBufferPrefix + strconv.Itoa(os.Getpid()) + "-abcd"
	for _, name := range []string{dead, live, "users"} {
		tmuxtest.Run(t, sock, "set-buffer", "-b", name, "x")
	}
	h := newHub(t, c, Options{})
	if err := h.ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := tmuxtest.Run(t, sock, "list-buffers", "-F", "#{buffer_name}")
	if got != "users\n"+live+"\n" && got != live+"\nusers\n" {
		t.Errorf("buffers after the sweep:\n%s\nwant %s and users", got, live)
	}
}
