//go:build unix

package live

import (
	"io"
	"net"
	"os"
	"syscall"
)

// acceptQueued takes every connection already queued on ln without
// waiting for more: once the socket's name is removed, nobody can queue
// one after them.
func acceptQueued(ln *net.UnixListener) []*net.UnixConn {
	raw, err := ln.SyscallConn()
	if err != nil {
		return nil
	}
	var fds []int
	raw.Read(func(fd uintptr) bool {
		for {
			// The listener is non-blocking: EAGAIN once the queue is empty.
			syscall.ForkLock.RLock()
			nfd, _, err := syscall.Accept(int(fd))
			if err == nil {
				syscall.CloseOnExec(nfd)
			}
			syscall.ForkLock.RUnlock()
			switch {
			case err == syscall.EINTR || err == syscall.ECONNABORTED:
				continue
			case err != nil:
				return true
			}
			fds = append(fds, nfd)
		}
	})
	var conns []*net.UnixConn
	for _, fd := range fds {
		f := os.NewFile(uintptr(fd), "tap reader")
		c, err := net.FileConn(f)
		f.Close()
		if uc, ok := c.(*net.UnixConn); err == nil && ok {
			conns = append(conns, uc)
		} else if err == nil {
			c.Close()
		}
	}
	return conns
}

// pollable returns stdin as a file the runtime's poller waits on, if it
// is a pipe or a socket (tmux's pipe-pane gives its command one end of a
// socket pair): a goroutine blocked reading a blocking pipe holds an OS
// thread in read(2), so the goroutine it wakes on each chunk (a reader's
// server) waits for another thread to wake and take it, where with the
// poller it runs at once on the reader's thread. The tap's end of a
// pane's pipe is the tap's alone (its stdout is not it), so making it
// non-blocking changes nothing for anyone else. Anything else is returned as it is.
func pollable(stdin io.Reader) io.Reader {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return stdin
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return stdin
	}
	var fd uintptr
	var nbErr error
	if raw.Control(func(d uintptr) { fd, nbErr = d, syscall.SetNonblock(int(d), true) }) != nil || nbErr != nil {
		return stdin
	}
	// A second File on the same descriptor, which NewFile, finding it
	// non-blocking, registers with the poller. f stays referenced by the
	// caller (and is never closed): its finalizer would close the
	// descriptor under the new one.
	return os.NewFile(fd, f.Name())
}

// writeNow writes what of p the socket of raw takes at once, in one
// write(2) that never waits, and returns how much that was: 0 when the
// socket is full, or on any error (the writer that may wait meets it).
func writeNow(raw syscall.RawConn, p []byte) int {
	n := 0
	raw.Write(func(fd uintptr) bool {
		if k, err := syscall.Write(int(fd), p); err == nil {
			n = k
		}
		return true // done, whatever the write did: never wait for the socket
	})
	return n
}
