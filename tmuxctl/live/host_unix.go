//go:build unix

package live

import (
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
