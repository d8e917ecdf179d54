//go:build unix

package live

import (
	"io"
	"os"
	"syscall"
)

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

// readPooled reads once from r and passes what it read to took: with a
// buffer from readBufs taken only once r is readable, when r is a file
// the runtime's poller waits on (a FIFO); otherwise with a pooled buffer
// held through the read. It returns what it read and the error; 0 and
// nil is the end of the file.
func readPooled(r io.Reader, took func([]byte)) (int, error) {
	if f, ok := r.(*os.File); ok {
		if raw, err := f.SyscallConn(); err == nil {
			var n int
			var rerr error
			err := raw.Read(func(fd uintptr) bool {
				bp := readBufs.Get().(*[]byte)
				n, rerr = syscall.Read(int(fd), *bp)
				if rerr == syscall.EAGAIN || rerr == syscall.EINTR {
					readBufs.Put(bp)
					return false // wait until it is readable
				}
				if n > 0 {
					took((*bp)[:n])
				}
				readBufs.Put(bp)
				return true
			})
			if n < 0 {
				n = 0
			}
			if err != nil {
				return n, err
			}
			return n, rerr
		}
	}
	return readWithPool(r, took)
}
