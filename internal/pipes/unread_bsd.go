//go:build darwin || freebsd

package pipes

import (
	"os"

	"golang.org/x/sys/unix"
)

// fionread is FIONREAD of <sys/filio.h>, _IOR('f', 127, int), the same on
// macOS and FreeBSD (x/sys/unix does not name it there). Both answer it
// for pipes (what the pipe's buffer holds) and for sockets (what the
// receive buffer holds).
const fionread = 0x4004667f

// Unread returns how many bytes wait unread in pipe (or socket) f
// (FIONREAD), or 0 when it cannot tell.
func Unread(f *os.File) int {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	raw.Control(func(fd uintptr) {
		if v, err := unix.IoctlGetInt(int(fd), fionread); err == nil {
			n = v
		}
	})
	return n
}
