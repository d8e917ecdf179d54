//go:build !unix

package live

import (
	"io"
	"net"
)

// acceptQueued takes nothing where a tap serves nobody (see checkPeer).
func acceptQueued(*net.UnixListener) []*net.UnixConn { return nil }

// pollable returns stdin as it is.
func pollable(stdin io.Reader) io.Reader { return stdin }
