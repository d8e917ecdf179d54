package live

import (
	"context"
	"errors"
	"sync"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// An AskedStream is a stream host's stream asked for before the pane it
// will carry exists: the host's part (a FIFO made and opened) then runs
// while tmux makes the pane instead of after it. See [Hub.AskAhead]. (A
// [NewTap] goes further, its pipe in the command that makes the pane, but
// only a new window at a known place can be named in that command.)
type AskedStream struct {
	h    *Hub
	gen  [16]byte
	done chan struct{} // closed once the host has answered

	// Set before done is closed.
	info tapInfo
	fifo string
	err  error

	mu       sync.Mutex
	answered bool // the host has answered (info, fifo and err are set)
	taken    bool // a watch took it
	dropped  bool // given up: the host is told, once it has answered
}

// errAskedDropped is what taking a dropped AskedStream gives.
var errAskedDropped = errors.New("the stream asked for ahead was given up")

// AskAhead asks the stream host for a stream in the background, for
// [Hub.WatchNew] to take once the pane it is for exists. It returns nil
// where panes get no host stream (the escape hatch, no host), where
// WatchNew asks for nothing ahead. One that no watch takes must be
// dropped.
func (h *Hub) AskAhead(ctx context.Context) *AskedStream {
	if h.opts.TapBinary == "" || h.hostless.Load() {
		return nil
	}
	pre := &AskedStream{h: h, done: make(chan struct{})}
	tmuxctl.NonceBytes(pre.gen[:])
	started := h.goFunc(func() {
		info, fifo, err := h.newHostStream(ctx, pre.gen)
		pre.mu.Lock()
		pre.info, pre.fifo, pre.err = info, fifo, err
		pre.answered = true
		drop := pre.dropped && err == nil
		pre.mu.Unlock()
		close(pre.done)
		if drop {
			h.dropHostStream(pre.gen)
		}
	})
	if !started {
		return nil
	}
	return pre
}

// take waits for the host's answer and claims the stream for a pane.
func (pre *AskedStream) take(ctx context.Context) (gen [16]byte, info tapInfo, fifo string, err error) {
	select {
	case <-pre.done:
	case <-ctx.Done():
		pre.Drop()
		return pre.gen, tapInfo{}, "", ctx.Err()
	}
	pre.mu.Lock()
	defer pre.mu.Unlock()
	if pre.dropped {
		return pre.gen, tapInfo{}, "", errAskedDropped
	}
	pre.taken = true
	return pre.gen, pre.info, pre.fifo, pre.err
}

// Drop gives up a stream no watch took (the pane was not made, say): the
// host is told now, or as soon as it answers. Dropping nil, or a stream
// already taken or dropped, does nothing.
func (pre *AskedStream) Drop() {
	if pre == nil {
		return
	}
	pre.mu.Lock()
	if pre.taken || pre.dropped {
		pre.mu.Unlock()
		return
	}
	pre.dropped = true
	drop := pre.answered && pre.err == nil
	pre.mu.Unlock()
	if drop {
		pre.h.dropHostStream(pre.gen)
	}
}
