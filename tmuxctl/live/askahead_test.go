package live

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A stream asked for before its pane existed carries the pane: the
// pane's mark names the generation asked for, and the stream reads what
// the pane prints.
func TestStreamAskedAheadCarriesThePane(t *testing.T) {
	h, c, sock := newTapHub(t)
	ctx := context.Background()
	pre := h.AskAhead(ctx)
	if pre == nil {
		t.Fatal("AskAhead gave nothing on a hub with a stream host")
	}
	tmuxtest.Run(t, sock, "new-window", "-d", "/bin/sh") // %1; not the login shell, whose profile may take seconds
	s, err := h.WatchNew(ctx, "%1", pre)
	if err != nil {
		t.Fatal(err)
	}
	if s.gen != pre.gen {
		t.Errorf("the stream is generation %x, not the one asked for %x", s.gen, pre.gen)
	}
	if info := hostOf(t, c, "%1"); info.gen != pre.gen {
		t.Errorf("pane %%1 is marked with generation %x, not the one asked for %x", info.gen, pre.gen)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "echo pre''pared", "Enter")
	waitText(t, s, 0, "prepared\n")
}

// A stream asked for ahead of a pane that never came is given up, before
// the host has answered (the first one starts the host) or after: its
// FIFO goes.
func TestStreamAskedAheadDropped(t *testing.T) {
	h, _, _ := newTapHub(t)
	ctx := context.Background()
	for _, answered := range []bool{false, true} {
		pre := h.AskAhead(ctx)
		if pre == nil {
			t.Fatal("AskAhead gave nothing on a hub with a stream host")
		}
		if !answered {
			pre.Drop()
		}
		<-pre.done
		if pre.err != nil {
			t.Fatal(pre.err)
		}
		if answered {
			pre.Drop()
		}
		if _, _, _, err := pre.take(ctx); !errors.Is(err, errAskedDropped) {
			t.Errorf("taking a dropped stream: %v, want %v", err, errAskedDropped)
		}
		for deadline := time.Now().Add(eventBound); ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Lstat(pre.fifo); errors.Is(err, os.ErrNotExist) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the FIFO of a dropped stream (answered first: %v) is still there", answered)
			}
		}
	}
}
