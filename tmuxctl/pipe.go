package tmuxctl

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// WatchPiped starts the stream of a pane this server created and whose
// program has not started yet, feeding it from tmux's pipe-pane rather than
// from control mode. tmux 3.3a closes a pane's pty when its program exits
// and drops output it had not read yet — from the screen and from control
// clients alike (measured here: most of a 1 KiB burst, often) — unless a
// pipe-pane is open: then it drains the pty into the pipe first. So a
// piped stream holds everything the program printed, and [Stream.Drained]
// says when the last byte is in.
//
// With a gate that acks (see [Gate]), it signals the gate's channel when it
// reads the program's exit marker.
func (h *Hub) WatchPiped(ctx context.Context, p PaneID, gate Gate) (*Stream, error) {
	dir, err := h.pipeDir()
	if err != nil {
		return nil, err
	}
	fifo := filepath.Join(dir, "pane-"+strings.TrimPrefix(string(p), "%"))
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return nil, &os.PathError{Op: "mkfifo", Path: fifo, Err: err}
	}
	s := newStream(h, p, h.size)
	s.piped = true
	s.drained = make(chan struct{})
	opened := make(chan *os.File, 1)
	go func() {
		// Opening a FIFO to read blocks until its writer opens it.
		f, err := os.OpenFile(fifo, os.O_RDONLY, 0)
		if err != nil {
			close(opened)
			return
		}
		opened <- f
	}()
	if _, err := h.client.command(ctx, "pipe-pane", "-O", "-t", string(p), "exec cat > "+ShellQuote(fifo)); err != nil {
		unblock(fifo)
		os.Remove(fifo)
		return nil, err
	}
	go func() {
		defer os.Remove(fifo)
		defer close(s.drained)
		f, ok := <-opened
		if !ok {
			return
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		// The exit marker is looked for here, not only in the stream, which
		// stops taking output once it fails (expired, hub closed): the
		// program's shell waits for the ack whatever became of the stream.
		var scan markerScanner
		acked := !gate.Ack
		for {
			n, err := f.Read(buf)
			if n > 0 {
				s.appendOutput(buf[:n])
				for _, m := range scan.scan(buf[:n]) {
					if !acked && m.Nonce == gate.Nonce && m.Kind == "exit" {
						acked = true
						h.ack(gate.AckChannel)
					}
				}
			}
			if err != nil {
				if err != io.EOF {
					s.markLost()
				}
				return
			}
		}
	}()

	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrHubClosed
	}
	if old := h.streams[p]; old != nil {
		h.retireLocked(old, TopologyChanged)
	}
	h.streams[p] = s
	h.byGen[s.gen] = s
	s.mu.Lock()
	s.touchLocked()
	s.mu.Unlock()
	h.mu.Unlock()
	// Its death must be noticed even with nobody waiting, so the exit is
	// recorded and a pane that would have closed is closed.
	h.watchDeath()
	return s, nil
}

// ack releases a program's shell waiting on channel, trying a few times.
func (h *Hub) ack(channel string) {
	for attempt := 0; attempt < 5; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := h.client.Signal(ctx, channel)
		cancel()
		if err == nil || errors.Is(err, ErrServerGone) {
			return
		}
	}
}

// unblock opens fifo for writing and closes it, so a reader blocked
// opening it gives up (it then reads EOF).
func unblock(fifo string) {
	if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// pipeDir is a private directory (0700) for the hub's FIFOs.
func (h *Hub) pipeDir() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return "", ErrHubClosed
	}
	if h.fifoDir == "" {
		dir, err := os.MkdirTemp("", "tmux-mcp-pipes-")
		if err != nil {
			return "", err
		}
		h.fifoDir = dir
	}
	return h.fifoDir, nil
}

// ShellQuote quotes s as one word for sh, and for fish (which reads '\”
// the same way) as long as s holds no backslash.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
