package live

import (
	"fmt"
	"net"
	"os"
)

// ReadersChecked reports whether this build can ask the kernel which user
// is at the other end of a unix socket (peerUIDOf: SO_PEERCRED on Linux,
// LOCAL_PEERCRED on macOS and FreeBSD). Only then may a pane's tap serve
// other processes; elsewhere each instance pipes its panes itself.
func ReadersChecked() bool { return peerCredentials }

// checkPeer refuses a reader of another user.
func checkPeer(c *net.UnixConn) error {
	uid, err := peerUID(c)
	if err != nil {
		return err
	}
	if uid != os.Getuid() {
		return fmt.Errorf("reader of uid %d refused", uid)
	}
	return nil
}

// peerUID returns the user id the kernel recorded for the process at the
// other end of c when the connection was made.
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var uid int
	var credErr error
	if err := raw.Control(func(fd uintptr) { uid, credErr = peerUIDOf(int(fd)) }); err != nil {
		return 0, err
	}
	return uid, credErr
}
