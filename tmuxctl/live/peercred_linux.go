package live

import "syscall"

const peerCredentials = true

// peerUIDOf asks SO_PEERCRED: the effective uid of the process that
// connected (or listened), as it was at connect(2).
func peerUIDOf(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
