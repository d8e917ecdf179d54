//go:build unix

package live

import (
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
