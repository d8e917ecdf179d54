package resources

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A subscription ends with the client's session, unsubscribed or not, and
// Close ends the rest.
func TestSubscriptionEndsWithSession(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	hub, err := live.New(c, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := New(c, hub)
	opts := &mcp.ServerOptions{}
	r.Configure(opts)
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, opts)
	r.Register(s)
	t.Cleanup(func() {
		r.Close()
		hub.Close()
	})

	connect := func(era string) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := s.Connect(context.Background(), st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: era})
		if err != nil {
			t.Fatal(err)
		}
		if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: ScreenURI("%0")}); err != nil {
			t.Fatal(err)
		}
		return cs
	}
	watching := func() (n int) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if w := r.watchers[ScreenURI("%0")]; w != nil {
			n = len(w.sessions)
		}
		return n
	}
	a, b := connect("2025-11-25"), connect("2026-07-28")
	for i := 0; watching() != 2; i++ { // a 2026-07-28 subscription is a listen request, answered later
		if i == 1000 {
			t.Fatalf("%d sessions watching, want 2", watching())
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.Close()
	for i := 0; watching() != 1; i++ { // the server notices the close on its own goroutine
		if i == 1000 {
			t.Fatalf("%d sessions watching after one closed, want 1", watching())
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Close()
	for i := 0; watching() != 0; i++ {
		if i == 1000 {
			t.Fatal("the watcher outlived its last session")
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.mu.Lock()
	left := len(r.watchers)
	r.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d watchers left", left)
	}
}
