package handlers

import (
	"context"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// spares keeps at most one spare program pane (tmuxctl.Spare) ready for
// run_program in the program session: with tmux built with utempter, a
// new pane costs a helper process the server waits for, which a spare
// made between calls takes off the call. A spare is made once a
// run_program that could use one has answered, not while its program
// runs: tmux relays the program's output, and a server busy making a
// pane (waiting for utempter) relays nothing meanwhile (measured: made
// at once, run_program was no faster).
type spares struct {
	mu     sync.Mutex
	ready  *spare
	making bool
	made   chan struct{} // closed when the one being made is done
	waiter bool          // a call waits for it
	closed bool
	wg     sync.WaitGroup // the one making
}

// A spare is a spare pane, watched from its start.
type spare struct {
	sp     *tmuxctl.Spare
	stream *live.Stream
	unhold func()      // ends the hold that keeps its stream from expiring
	drop   *time.Timer // drops it unused
}

// spareUnused is how long a spare waits for a program at most (less
// when streams expire sooner).
const spareUnused = 10 * time.Minute

// takeSpare returns the ready spare, if any. One being made is waited for by one call (it
// is further along than a pane this call would make, which tmux would
// make after it anyway; and calls one after another then use spares in
// order, so their panes' ids are those the usual path gives).
func (h *Handlers) takeSpare(ctx context.Context) *spare {
	h.spares.mu.Lock()
	if h.spares.ready == nil && h.spares.making && !h.spares.waiter {
		h.spares.waiter = true
		made := h.spares.made
		h.spares.mu.Unlock()
		select {
		case <-made:
		case <-ctx.Done():
		}
		h.spares.mu.Lock()
		h.spares.waiter = false
	}
	s := h.spares.ready
	h.spares.ready = nil
	if s != nil && !s.drop.Stop() {
		s = nil // being dropped
	}
	h.spares.mu.Unlock()
	return s
}

// refillSpare starts making a spare unless one is ready or being made.
func (h *Handlers) refillSpare() {
	h.spares.mu.Lock()
	if h.spares.closed || h.spares.making || h.spares.ready != nil {
		h.spares.mu.Unlock()
		return
	}
	h.spares.making = true
	made := make(chan struct{})
	h.spares.made = made
	h.spares.wg.Add(1)
	h.spares.mu.Unlock()
	// The stream is asked for here, and the pane's commands are counted
	// ahead of whatever comes next (tmuxctl.Client.Ahead) before this
	// call answers: the next call's panes come after the spare's.
	tap := h.hub.PrepareTap()
	// Not ended by shutdown: Close waits for it and removes it, so that
	// whether it was made never depends on when the server stopped.
	ctx, cancel := context.WithTimeout(tmuxctl.Background(context.WithoutCancel(h.shutdown)), 10*time.Second)
	ctx, ahead := h.tmux.Ahead(ctx)
	go func() {
		defer h.spares.wg.Done()
		defer cancel()
		s := h.makeSpare(ctx, tap, ahead)
		h.spares.mu.Lock()
		h.spares.making = false
		defer close(made)
		if s != nil && !h.spares.closed {
			h.spares.ready = s
			s.drop = time.AfterFunc(min(spareUnused, h.hub.Idle()), func() {
				h.spares.mu.Lock()
				if h.spares.ready == s {
					h.spares.ready = nil
				}
				h.spares.mu.Unlock()
				h.discardSpare(s)
			})
			s = nil
		}
		h.spares.mu.Unlock()
		if s != nil {
			h.discardSpare(s)
		}
	}()
}

// makeSpare makes a spare pane with tap and watches it as startProgram
// watches a program's; nil if it could not. Its commands are no call's
// (ctx from tmuxctl.Background); ahead is called once the pane is made.
func (h *Handlers) makeSpare(ctx context.Context, tap *live.NewTap, ahead func()) *spare {
	sp, err := h.tmux.MakeSpare(ctx, tap.Pipe(), tmuxctl.Nonce(12))
	ahead()
	if err != nil {
		tap.Abandon()
		return nil
	}
	s, err := h.hub.WatchCreated(ctx, sp.Created, sp.Gate, tap)
	if err != nil {
		h.discardSpare(&spare{sp: sp, unhold: func() {}})
		return nil
	}
	return &spare{sp: sp, stream: s, unhold: s.Hold()}
}

// discardSpare removes spare s: its shell reads end of file and ends, and
// its pane is killed.
func (h *Handlers) discardSpare(s *spare) {
	s.unhold()
	s.sp.Close()
	ctx, cancel := context.WithTimeout(tmuxctl.Background(context.Background()), tmuxctl.CommandTimeout)
	_ = h.tmux.KillPane(ctx, s.sp.Created.Pane)
	cancel()
	s.sp.Gate.Abandon()
}

// startOnSpare starts program spawn on the ready spare, checked as
// startProgram checks it: ok false (and no error) when there is none, or
// it is gone, and the caller starts the program the usual way.
func (h *Handlers) startOnSpare(ctx context.Context, spawn tmuxctl.Spawn) (st started, s *spare, ok bool, err error) {
	s = h.takeSpare(ctx)
	if s == nil {
		return started{}, nil, false, nil
	}
	if err := h.tmux.CheckStartable(ctx, tmuxctl.Placement{}, spawn); err != nil {
		h.keepSpare(s)
		return started{}, nil, false, h.explain(ctx, err)
	}
	// Killed by someone else, or ended: given up silently.
	created := s.sp.Created
	p, perr := h.tmux.Pane(ctx, created.Pane)
	if dead, failure := s.stream.State(); perr != nil || p.Dead || p.PID != created.PID || dead || failure != "" {
		go h.discardSpare(s)
		return started{}, nil, false, nil
	}
	if err := s.sp.Run(spawn); err != nil {
		go h.discardSpare(s)
		return started{}, nil, false, nil
	}
	return started{created: created, stream: s.stream, release: func() {}}, s, true, nil
}

// keepSpare puts back a spare taken but not used.
func (h *Handlers) keepSpare(s *spare) {
	h.spares.mu.Lock()
	if h.spares.closed || h.spares.ready != nil {
		h.spares.mu.Unlock()
		go h.discardSpare(s)
		return
	}
	h.spares.ready = s
	s.drop.Reset(min(spareUnused, h.hub.Idle()))
	h.spares.mu.Unlock()
}

// doneWithSpare ends what the spare held once its program's call is over:
// the stream's hold, and the FIFO once the shell surely read its program
// (its marker came, or its pane is gone), else when its stream ends.
func (h *Handlers) doneWithSpare(s *spare, ended bool) {
	s.unhold()
	if ended {
		s.sp.Close()
		return
	}
	go func() {
		select {
		case <-s.stream.Drained():
		case <-h.shutdown.Done():
		}
		s.sp.Close()
	}()
}

// Close removes the spare pane, if any, waiting for one being made.
func (h *Handlers) Close() {
	h.spares.mu.Lock()
	h.spares.closed = true
	s := h.spares.ready
	h.spares.ready = nil
	h.spares.mu.Unlock()
	if s != nil && s.drop.Stop() {
		h.discardSpare(s)
	}
	h.spares.wg.Wait()
}
