//go:build unix

package server

import (
	"io/fs"
	"os"
	"syscall"
)

// interruptibleInput returns a file reading what f reads whose reads a
// deadline can interrupt, so that the transport's line reader can be
// joined at shutdown even when input has not ended (SIGTERM with stdin
// open). os.Stdin is in blocking mode, where closing it does not end a
// read in progress; a duplicate descriptor in non-blocking mode goes
// through Go's poller, where a deadline does. Only pipes and sockets get
// one, what MCP clients give: a terminal shares its mode with the shell
// that started us, so it stays as it is (its reader ends with the
// process). restore puts the blocking mode back, as the description is
// shared with whoever else holds the pipe.
func interruptibleInput(f *os.File) (in *os.File, restore func()) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
		return f, func() {}
	}
	// Under ForkLock, so no child inherits the duplicate before it is
	// marked close-on-exec.
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(f.Fd()))
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return f, func() {}
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return f, func() {}
	}
	dup := os.NewFile(uintptr(fd), f.Name())
	return dup, func() {
		syscall.SetNonblock(fd, false)
		dup.Close()
	}
}
