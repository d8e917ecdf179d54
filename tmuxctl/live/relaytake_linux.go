package live

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// takeRelayPipe returns a copy of descriptor relayPipeFD of process pid,
// a relay shell that has said its line and waits for the host's word: the
// socket tmux writes the pane's output into. pidfd_getfd (Linux 5.6)
// copies it when the kernel lets this process trace the relay (the same
// user, and Yama's ptrace_scope 0, or no Yama); otherwise the error says
// why, and the relay becomes a cat. The copy is the relay's only while
// the relay still lives after this call (the pid was then the relay's
// when it was opened): the caller checks that before it uses the copy
// (see tap.takePipe), and closes it otherwise.
func takeRelayPipe(pid int) (int, error) {
	pidfd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1, fmt.Errorf("pidfd_open: %w", err)
	}
	defer unix.Close(pidfd)
	fd, err := unix.PidfdGetfd(pidfd, relayPipeFD, 0) // close-on-exec
	if err != nil {
		return -1, fmt.Errorf("pidfd_getfd: %w", err)
	}
	return fd, nil
}
