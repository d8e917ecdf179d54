package live

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A NewTap is the tap of a pane about to be made: its pipe goes in the
// command list that makes the pane ([tmuxctl.Placement.Pipe]), so that the
// tap starts with no round trip after the pane does, and a program's
// first output is already on its way to it. Get one with
// [Hub.PrepareTap]; a nil NewTap is none.
type NewTap struct {
	info   tapInfo
	ready  <-chan struct{}
	forget func()
	pipe   tmuxctl.CreationPipe
}

// paneHere stands for the new pane's id in a NewTap's command until tmux
// puts the id there: a byte no part of that command holds (CreationPipe
// refuses one that appears twice).
const paneHere = "\x01"

// PrepareTap returns the tap for a pane about to be made, or nil when
// panes are read through FIFOs (no tap binary).
func (h *Hub) PrepareTap() *NewTap {
	if h.opts.TapBinary == "" {
		return nil
	}
	var gen [16]byte
	tmuxctl.NonceBytes(gen[:])
	socket := tapSocket(tapDir(h.client.SocketPath()), gen)
	info := tapInfo{mark: tapMark(gen, socket), gen: gen, socket: socket}
	readyPath, ready, forget := h.expectTap(gen)
	pipe := h.ops.CreationPipe(h.tapCommand(paneHere, gen, socket, readyPath), paneHere, info.mark)
	if pipe == (tmuxctl.CreationPipe{}) {
		forget()
		return nil
	}
	return &NewTap{info: info, ready: ready, forget: forget, pipe: pipe}
}

// Pipe returns what the pane's placement opens as it makes the pane.
func (t *NewTap) Pipe() tmuxctl.CreationPipe {
	if t == nil {
		return tmuxctl.CreationPipe{}
	}
	return t.pipe
}

// Abandon gives t up, for a pane that was not made.
func (t *NewTap) Abandon() {
	if t != nil {
		t.forget()
	}
}

// WatchCreated is [Hub.WatchPiped] for pane created, made with t's pipe in
// its placement: the stream follows that tap. A pane made without it (a
// split, a new session, no tap) is watched as WatchPiped does.
func (h *Hub) WatchCreated(ctx context.Context, created tmuxctl.Created, gate tmuxctl.Gate, t *NewTap) (*Stream, error) {
	if t == nil || !created.Piped {
		t.Abandon()
		return h.WatchPiped(ctx, created.Pane, gate)
	}
	p := created.Pane
	done, err := h.setUp(ctx, p)
	if err != nil {
		t.forget()
		return nil, err
	}
	defer done()
	s, err := h.followOwnTap(p, t.info, gate, t.ready, t.forget)
	if err != nil {
		return nil, err
	}
	return h.register(p, s, h.stream(p)) // a stream of p from a tmux server that restarted goes
}
