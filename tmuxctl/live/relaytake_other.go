//go:build !linux

package live

import "errors"

// takeRelayPipe cannot copy another process's descriptor here (macOS
// and FreeBSD have no pidfd_getfd): every relay is a cat.
func takeRelayPipe(int) (int, error) {
	return -1, errors.New("no pidfd_getfd on this system")
}
