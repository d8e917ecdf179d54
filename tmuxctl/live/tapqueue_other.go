//go:build !unix

package live

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
)

// writeNow writes nothing: the reader's server writes it all.
func writeNow(syscall.RawConn, []byte) int { return 0 }

// flock fails: no stream host runs here (see checkPeer).
func flock(*os.File) error { return errors.ErrUnsupported }

// execHost returns the command that would start the stream host.
func execHost(bin string, args ...string) *exec.Cmd { return exec.Command(bin, args...) }

// readPooled reads once from r into a pooled buffer and passes what it
// read to took.
func readPooled(r io.Reader, took func([]byte)) (int, error) { return readWithPool(r, took) }
