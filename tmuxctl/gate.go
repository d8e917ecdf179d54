package tmuxctl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// The shells that gate programs in panes wait on FIFOs, not on tmux: a
// FIFO costs no tmux command, and it works whatever tmux binary the pane
// finds on its PATH (a tmux 3.5a binary cannot talk to a 3.6 or later
// server at all). Each gate has a private directory (0700, named like the
// live layer's instance directories, so that a later instance removes it
// should this process die first) holding its FIFOs: "go", which the shell
// reads before it runs the program, and, for a gate that acks, "ack",
// which the shell reads after it printed the program's exit marker.
type gateFiles struct {
	dir string

	mu       sync.Mutex
	released map[string]bool          // FIFOs written or given up
	pending  map[string]chan struct{} // FIFOs being written: closed when done
}

const (
	gateGo  = "go"
	gateAck = "ack"
)

func newGateFiles(names ...string) (*gateFiles, error) {
	dir, err := os.MkdirTemp("", "tmux-mcp-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	// A FIFO not made counts as released: each one is a file system
	// operation on the call's path, then another to remove it.
	g := &gateFiles{dir: dir, released: map[string]bool{gateGo: true, gateAck: true}, pending: map[string]chan struct{}{}}
	for _, name := range names {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			os.RemoveAll(dir)
			return nil, &os.PathError{Op: "mkfifo", Path: filepath.Join(dir, name), Err: err}
		}
		g.released[name] = false
	}
	return g, nil
}

func (g *gateFiles) path(name string) string { return filepath.Join(g.dir, name) }

// release writes payload into FIFO name once its reader (the pane's shell)
// opens it, and closes it: the shell reads payload, then end of file. It
// waits for the reader until ctx ends; ending ctx gives the FIFO up, so the
// shell, should it open it later, reads an empty gate (it then stops).
// Once both FIFOs are released the directory goes.
func (g *gateFiles) release(ctx context.Context, name string, payload []byte) error {
	g.mu.Lock()
	if g.released[name] {
		g.mu.Unlock()
		return nil
	}
	g.released[name] = true
	done := make(chan struct{})
	g.pending[name] = done
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.pending, name)
		g.mu.Unlock()
		close(done)
		g.removeIfDone()
	}()
	f, err := openWriter(ctx, g.path(name))
	if err != nil {
		return err
	}
	_, err = f.Write(payload)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// abandon gives up every FIFO not yet released, ends a release still
// waiting for its reader (the pane's shell was killed, say), and removes
// the directory. A shell already waiting on a FIFO given up reads an
// empty gate and ends: its pane would otherwise stay (tmux may have made
// it before a failed or cancelled command list).
func (g *gateFiles) abandon() {
	g.mu.Lock()
	var waits []chan struct{}
	for _, name := range []string{gateGo, gateAck} {
		if !g.released[name] {
			g.released[name] = true
			// Opening the writing end ends a reader's wait (none: ENXIO).
			if w, err := os.OpenFile(g.path(name), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			continue
		}
		if done, ok := g.pending[name]; ok {
			// Opening the reading end ends the writer's wait at once.
			if r, err := os.OpenFile(g.path(name), os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				defer r.Close()
			}
			waits = append(waits, done)
		}
	}
	g.mu.Unlock()
	for _, done := range waits {
		<-done
	}
	g.removeIfDone()
}

func (g *gateFiles) removeIfDone() {
	g.mu.Lock()
	done := g.released[gateGo] && g.released[gateAck] && len(g.pending) == 0
	g.mu.Unlock()
	if done {
		os.RemoveAll(g.dir)
	}
}

// openWriter opens FIFO path for writing, which blocks until a reader
// opens it, or until ctx ends: then it opens the reading end itself to end
// the wait, and reports ctx's error.
func openWriter(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	o := <-ch // the wait ends now that a reader is there
	if err == nil {
		r.Close()
	}
	if o.f != nil {
		o.f.Close()
	}
	if o.err != nil && !errors.Is(o.err, os.ErrNotExist) {
		return nil, o.err
	}
	return nil, ctx.Err()
}
