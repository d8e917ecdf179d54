//go:build darwin || freebsd

package live

import (
	"fmt"

	"golang.org/x/sys/unix"
)

const peerCredentials = true

// xucredVersion is XUCRED_VERSION of <sys/ucred.h> (macOS and FreeBSD):
// the only layout of struct xucred either has had.
const xucredVersion = 0

// peerUIDOf asks LOCAL_PEERCRED (level SOL_LOCAL, 0; option 1 on both
// systems): the kernel's copy of the peer's credentials, taken when it
// connected — for a socket accept(2) returned, those of the process that
// called connect(2). cr_uid is that process's effective uid, as
// SO_PEERCRED's on Linux. (getpeereid(3) is a libc wrapper of the same
// option.)
func peerUIDOf(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	if cred.Version != xucredVersion {
		return 0, fmt.Errorf("peer credentials of unknown version %d", cred.Version)
	}
	return int(cred.Uid), nil
}
