package live

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// A fifo is a named pipe a pane's relay writes into. Opening it to read
// blocks until the relay opens it to write, so the opening happens in a
// goroutine of its own.
type fifo struct {
	path   string
	opened chan *os.File // receives the open FIFO; closed if it never opens
	tried  chan struct{} // closed once the opening has returned, either way
}

// newFIFO makes the FIFO at path (mode 0600) and starts opening it.
func (h *Hub) newFIFO(path string) (*fifo, error) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, &os.PathError{Op: "mkfifo", Path: path, Err: err}
	}
	f := &fifo{path: path, opened: make(chan *os.File, 1), tried: make(chan struct{})}
	started := h.goFunc(func() {
		defer close(f.tried)
		file, err := os.OpenFile(path, os.O_RDONLY, 0)
		if err != nil {
			close(f.opened)
			return
		}
		f.opened <- file
	})
	if !started {
		os.Remove(path)
		return nil, ErrHubClosed
	}
	return f, nil
}

// abandon gives up a FIFO no relay will ever open: the pending open is
// released (it then reads EOF at once) and the file removed.
func (f *fifo) abandon() {
	f.release()
	if file, ok := <-f.opened; ok {
		file.Close()
	}
	os.Remove(f.path)
	os.Remove(relayHeadPath(f.path))
}

// releaseRetry is how often [fifo.release] tries again to meet the opening
// reader.
const releaseRetry = 5 * time.Millisecond

// release makes the pending open of the FIFO return, whether or not a
// relay ever opens it: it opens the FIFO for writing and closes it again
// until the opening has returned. A non-blocking open for writing fails
// (ENXIO) while no reader has reached open(2) yet, so one try is not
// enough: the opener may not have started.
func (f *fifo) release() {
	for {
		if w, err := os.OpenFile(f.path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		select {
		case <-f.tried:
			return
		case <-time.After(releaseRetry):
		}
	}
}

// feed copies the FIFO into stream s until the pipe ends, then works out
// why it ended. With a gate that acks, it signals the gate's channel when
// the program's exit marker goes by.
func (h *Hub) feed(s *Stream, f *fifo, gate tmuxctl.Gate) {
	defer func() {
		h.mu.Lock()
		delete(h.feeders, s)
		h.mu.Unlock()
	}()
	defer os.Remove(f.path)
	defer os.Remove(relayHeadPath(f.path))
	file, ok := <-f.opened
	if ok {
		s.mu.Lock()
		stopped := s.file == stoppedFile
		if !stopped {
			s.file = file
		}
		s.mu.Unlock()
		if stopped {
			file.Close()
			ok = false
		}
	}
	if ok {
		h.copyPipe(s, file, gate)
		file.Close()
	}
	s.mu.Lock()
	s.pipeEnded = true
	s.file = nil
	s.relayedLocked()
	s.mu.Unlock()
	close(s.drained)
	if s.valid() {
		h.pipeClosed(s)
	}
}

// stoppedFile marks a stream whose reader was told to stop before its
// FIFO opened.
var stoppedFile = new(os.File)

// stopReading ends the FIFO reader of s, fed from f, without waiting for
// the relay: used only at shutdown, after closing the pipe did not end it.
// A relay that never connected leaves the reader blocked opening the FIFO,
// so the opening is released too; the reader then sees stoppedFile and
// ends.
func (s *Stream) stopReading(f *fifo) {
	s.mu.Lock()
	file := s.file
	if file == nil {
		s.file = stoppedFile
	}
	s.mu.Unlock()
	if file != nil && file != stoppedFile {
		file.Close()
		return
	}
	f.release()
}

// copyPipe reads the relay's pid line, then everything the pane prints.
func (h *Hub) copyPipe(s *Stream, file *os.File, gate tmuxctl.Gate) {
	buf := make([]byte, 64<<10)
	var head []byte // the relay's pid line, until its newline
	headDone := false
	// The exit marker is looked for here, not only in the stream, which
	// stops taking output once it fails (expired, hub closed): the
	// program's shell waits for the ack whatever became of the stream.
	var scan frame.Scanner
	acked := !gate.Ack
	for {
		n, err := file.Read(buf)
		data := buf[:n]
		if !headDone && n > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 && len(head)+n < 32 {
				head = append(head, data...)
				data = nil
			} else {
				if i < 0 {
					i = 0
				}
				head = append(head, data[:i]...)
				data = data[i+1:]
				headDone = true
				h.relayStarted(s, string(head))
			}
		}
		if len(data) > 0 {
			s.appendOutput(data)
			for _, m := range scan.Scan(data) {
				if !acked && m.Nonce == gate.Nonce && m.Kind == frame.Exit {
					acked = true
					h.ack(gate)
				}
			}
		}
		if err != nil {
			if err != io.EOF && !errors.Is(err, os.ErrClosed) {
				s.markLost()
			}
			return
		}
	}
}

// relayStarted records the relay's process id, here and in the pane's
// mark, so that a later instance can end it should this one die while
// the pane is dead (tmux 3.4+ will not close a dead pane's pipe).
func (h *Hub) relayStarted(s *Stream, line string) {
	pid, err := strconv.Atoi(line)
	s.mu.Lock()
	s.relayedLocked()
	if err != nil || pid <= 1 {
		s.mu.Unlock()
		return
	}
	s.relayPID = pid
	s.mu.Unlock()
	base := h.ctx
	if _, bg := h.background.LoadAndDelete(s.pane); bg {
		base = tmuxctl.Background(base)
	}
	h.goFunc(func() {
		ctx, cancel := context.WithTimeout(base, stepTimeout)
		defer cancel()
		h.ops.RecordRelay(ctx, s.pane, s.mark, pid)
	})
}

// relayedLocked records that the relay of a FIFO stream reads, or never
// will; s.mu is held.
func (s *Stream) relayedLocked() {
	select {
	case <-s.relayed:
	default:
		close(s.relayed)
	}
}

// AwaitRelay waits, relayPatience at most, until the relay that copies
// the pane's pipe into the stream reads that pipe. A program let run only
// then has its output copied as it prints: before, its output waits in
// the pipe until the relay has started, which on a loaded machine can
// take longer than the program takes to print and exit.
func (s *Stream) AwaitRelay(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, relayPatience)
	defer cancel()
	if s.tap != nil {
		s.tap.syncWithin(ctx, relayPatience)
		return
	}
	select {
	case <-s.relayed:
	case <-s.drained: // a dead pane's stream has no relay
	case <-ctx.Done():
	}
}

// ack releases a program's shell waiting after its exit marker. The
// shell listens right after printing the marker, and gives up by itself
// after ten seconds.
func (h *Hub) ack(gate tmuxctl.Gate) {
	ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
	defer cancel()
	gate.Acknowledge(ctx)
}

// pipeClosed works out why the pipe of a valid stream ended: the pane
// closed or died (the stream is dead, with every byte), the tmux server
// went away, or someone else closed or replaced the pipe — then the
// stream fails and the pipe, no longer ours, is never touched again.
func (h *Hub) pipeClosed(s *Stream) {
	s.mu.Lock()
	settled := s.dead && s.unmarked
	s.mu.Unlock()
	if settled {
		// Its death was handled (settle): the exit tracker was told, and
		// closePipe took the mark away. Nothing is left to ask tmux.
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
	defer cancel()
	pane, err := h.client.Pane(ctx, s.pane)
	var nf *tmuxctl.NotFoundError
	switch {
	case errors.As(err, &nf):
		s.markDead()
		h.exits.notify(s.pane)
	case err != nil:
		h.retire(s, ConnectionLost)
	case pane.Dead:
		s.markDead()
		h.ops.UnmarkPipe(ctx, s.pane, s.mark)
		h.exits.notify(s.pane)
	default:
		h.ops.UnmarkPipe(ctx, s.pane, s.mark)
		h.retire(s, ConnectionLost)
	}
}

// retire ends stream s with failure f, leaving its pipe alone.
func (h *Hub) retire(s *Stream, f Failure) {
	h.mu.Lock()
	h.retireLocked(s, f)
	h.mu.Unlock()
	s.fail(f)
}

// closePipe closes the pipe of stream s if it is still ours, and makes
// sure its relay ends: on a dead pane tmux 3.4+ will not close the pipe,
// so the relay is ended directly (it is known alive: the FIFO is still
// open).
func (h *Hub) closePipe(ctx context.Context, s *Stream) {
	if s.tap != nil {
		s.closeTap()
		return
	}
	s.mu.Lock()
	ended, relay := s.pipeEnded, s.relayPID
	s.mu.Unlock()
	if ended {
		return
	}
	if h.ops.ClosePipe(ctx, s.pane, s.mark) == nil {
		s.mu.Lock()
		s.unmarked = true
		s.mu.Unlock()
	}
	if !s.isDead() { // a live pane's pipe closes; a dead one's is left to us
		select {
		case <-s.drained:
			return
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	s.mu.Lock()
	ended = s.pipeEnded
	s.mu.Unlock()
	if !ended && relay > 0 {
		syscall.Kill(relay, syscall.SIGTERM)
	}
}

// paneDied handles pane p found dead while it stays open (remain-on-exit):
// its stream is marked dead once the pipe has delivered what tmux had
// already read, and the exit tracker is told.
func (h *Hub) paneDied(p tmuxctl.PaneID) {
	h.streamDied(p)
	h.exits.notify(p)
}

// streamDied starts settling the stream of dead pane p, if it has one.
func (h *Hub) streamDied(p tmuxctl.PaneID) {
	if s := h.stream(p); s != nil {
		s.mu.Lock()
		start := !s.dead && !s.dying && s.failure == ""
		s.dying = true
		s.mu.Unlock()
		if start {
			h.goFunc(func() { h.settle(s) })
		}
	}
}

// settleQuiet is how long a dead pane's pipe must stay quiet before its
// stream is called dead. tmux hands a pane's last output to the pipe
// before it marks the pane dead, but the relay may still be copying it.
const settleQuiet = 30 * time.Millisecond

// relayPatience bounds how long settle waits for a FIFO's relay to start.
const relayPatience = 5 * time.Second

// settle marks s dead once its pipe has been quiet for settleQuiet since
// the death was heard and since its last data (a second at most), then
// closes the pipe: a dead pane prints no more. The death can be heard
// before the pane's last output has come through the relay (they take
// different ways), so quiet counts from the death too.
//
// A FIFO's relay that has not said its pid yet has not copied anything:
// on a loaded machine a program can print and die before its cat runs,
// and the stream would be called dead without its output. Quiet then
// counts only once the relay has started, up to relayPatience.
func (h *Hub) settle(s *Stream) {
	heard := time.Now()
	deadline := heard.Add(time.Second)
	for {
		s.mu.Lock()
		quietFor := time.Since(s.lastData)
		waitingForRelay := s.tap == nil && s.relayPID == 0 && !s.pipeEnded
		s.mu.Unlock()
		quietFor = min(quietFor, time.Since(heard))
		if waitingForRelay && time.Since(heard) < relayPatience {
			quietFor = 0
		}
		if quietFor >= settleQuiet || time.Now().After(deadline) && !(waitingForRelay && time.Since(heard) < relayPatience) {
			break
		}
		select {
		case <-s.drained:
		case <-time.After(settleQuiet - quietFor):
		case <-h.done:
		}
	}
	ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
	defer cancel()
	// A tap's output takes one hop more than the death: what the tap
	// holds is in the stream before it is called dead, and the tap
	// answers only once its relay reads.
	if s.tap != nil && !s.isDead() {
		s.tap.syncWithin(ctx, relayPatience)
	}
	s.markDead()
	h.closePipe(ctx, s)
}

// awaitSettled waits, settleBound at most, until a stream whose pane's
// death was heard is called dead (settle): what the pane printed before
// it died is then in the stream. A read by cursor right after a program's
// exit was reported (start_program's answer) otherwise found the stream
// still short of the program's last output on a loaded machine.
func (h *Hub) awaitSettled(ctx context.Context, s *Stream) {
	s.mu.Lock()
	dying := s.dying && !s.dead && s.failure == ""
	s.mu.Unlock()
	if !dying {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, settleBound)
	defer cancel()
	h.Sync(ctx, s)
}

// settleBound bounds how long a read waits for a dying stream to settle.
const settleBound = 2 * time.Second

// CheckPane asks tmux whether pane p has died or gone, for waiters that
// must not rely on the death hook alone (read-only mode sets none). It
// changes nothing in tmux.
func (h *Hub) CheckPane(ctx context.Context, p tmuxctl.PaneID) {
	pane, err := h.client.Pane(ctx, p)
	var nf *tmuxctl.NotFoundError
	switch {
	case errors.As(err, &nf):
		if s := h.stream(p); s != nil {
			s.syncTap(ctx) // a tap's end can come later than the pane's
			select {
			case <-s.Drained(): // the pipe's end marks it dead
			case <-time.After(time.Second):
				s.markDead()
			case <-ctx.Done():
			}
		}
		h.exits.notify(p)
	case err == nil && pane.Dead:
		h.paneDied(p)
	}
}

// Sync waits until output tmux had read from pane of s before a death is
// in the stream: once the stream is dead (settled) or its pipe drained.
func (h *Hub) Sync(ctx context.Context, s *Stream) {
	s.syncTap(ctx) // a tap that is still starting holds it all
	for {
		changed := s.Changed()
		if s.isDead() || !s.valid() {
			return
		}
		select {
		case <-changed:
		case <-s.Drained():
			return
		case <-ctx.Done():
			return
		}
	}
}
