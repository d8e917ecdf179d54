//go:build unix

package live

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// flock takes f's exclusive lock without waiting.
func flock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) }

// execHost returns the command that starts the stream host: in a session
// of its own, with no stdio (nil: /dev/null), and nothing that kills it
// with the instance that starts it.
func execHost(bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}

// adoptPipe makes fd, the pane's pipe taken from its relay
// (takeRelayPipe), a file the runtime's poller waits on, if it is a socket
// (tmux's pipe-pane gives its child one end of a socket pair); otherwise
// it closes fd. Its open file description is shared only with the relay,
// which exits once the host has answered.
func adoptPipe(fd int) (*os.File, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		unix.Close(fd)
		return nil, errors.New("the relay's pipe is not a socket")
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "pane pipe"), nil
}
