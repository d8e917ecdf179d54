package live

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A NewTap is the stream of a pane about to be made: its pipe into the
// stream host goes in the command list that makes the pane
// ([tmuxctl.Placement.Pipe]), so that its relay starts with no round trip
// after the pane does, and a program's first output is already on its
// way to the host. Get one with [Hub.PrepareTap]; a nil NewTap is none.
type NewTap struct {
	h    *Hub
	info tapInfo
	pipe tmuxctl.CreationPipe
}

// paneHere stands for the new pane's id in a NewTap's command until tmux
// puts the id there: a byte no part of that command holds (CreationPipe
// refuses one that appears twice).
const paneHere = "\x01"

// PrepareTap returns the stream for a pane about to be made, or nil when
// panes are read through FIFOs (no tap binary, or no stream host). It
// asks the host (one local round trip; the host is started if none runs)
// for the stream before the pane exists.
func (h *Hub) PrepareTap() *NewTap {
	if h.opts.TapBinary == "" {
		return nil
	}
	var gen [16]byte
	tmuxctl.NonceBytes(gen[:])
	ctx, cancel := context.WithTimeout(h.ctx, hostStartPatience)
	defer cancel()
	info, fifo, err := h.newHostStream(ctx, gen)
	if err != nil {
		return nil
	}
	pipe := h.ops.CreationPipe(hostRelayCommand(fifo, paneHere), paneHere, info.mark)
	if pipe == (tmuxctl.CreationPipe{}) {
		h.dropHostStream(gen)
		return nil
	}
	return &NewTap{h: h, info: info, pipe: pipe}
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
		t.h.dropHostStream(t.info.gen)
	}
}

// WatchCreated is [Hub.WatchPiped] for pane created, made with t's pipe in
// its placement: the stream follows that pipe's stream in the host. A
// pane made without it (a split, a new session, no host) is watched as
// WatchPiped does.
func (h *Hub) WatchCreated(ctx context.Context, created tmuxctl.Created, gate tmuxctl.Gate, t *NewTap) (*Stream, error) {
	h.noteBackground(ctx, created.Pane)
	if t == nil || !created.Piped {
		t.Abandon()
		return h.WatchPiped(ctx, created.Pane, gate)
	}
	p := created.Pane
	done, err := h.setUp(ctx, p)
	if err != nil {
		// The pane's relay feeds the host, which ends the stream after
		// --stream-idle with no reader.
		return nil, err
	}
	defer done()
	s, err := h.followOwnTap(p, t.info, gate)
	if err != nil {
		return nil, err
	}
	return h.register(p, s, h.stream(p)) // a stream of p from a tmux server that restarted goes
}
