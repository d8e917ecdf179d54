//go:build unix

package live

import (
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
