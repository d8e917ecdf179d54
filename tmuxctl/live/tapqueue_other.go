//go:build !unix

package live

import (
	"io"
	"net"
	"syscall"
)

// acceptQueued takes nothing where a tap serves nobody (see checkPeer).
func acceptQueued(*net.UnixListener) []*net.UnixConn { return nil }

// pollable returns stdin as it is.
func pollable(stdin io.Reader) io.Reader { return stdin }

// writeNow writes nothing: the reader's server writes it all.
func writeNow(syscall.RawConn, []byte) int { return 0 }
