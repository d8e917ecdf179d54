package pipes

import (
	"os"
	"syscall"
	"unsafe"
)

// Unread returns how many bytes wait unread in pipe (or socket) f
// (FIONREAD), or 0 when it cannot tell.
func Unread(f *os.File) int {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var n int32
	raw.Control(func(fd uintptr) {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); e != 0 {
			n = 0
		}
	})
	return int(n)
}
