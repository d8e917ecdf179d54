package live

import (
	"net"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// nobody is the uid another user's reader has in the test below.
const nobody = 65534

// dialAs connects to the socket at path from a thread whose effective
// uid is uid (root may change one thread's uid with the raw system call).
// The thread never gets its uid back: its goroutine ends locked to it, so
// the runtime ends the thread too.
func dialAs(uid int) func(path string) (*net.UnixConn, error) {
	return func(path string) (*net.UnixConn, error) {
		type result struct {
			c   *net.UnixConn
			err error
		}
		done := make(chan result, 1)
		go func() {
			runtime.LockOSThread()
			keep := ^uintptr(0) // -1: unchanged
			if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, keep, uintptr(uid), keep); e != 0 {
				done <- result{nil, e}
				return
			}
			c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
			done <- result{c, err}
		}()
		r := <-done
		return r.c, r.err
	}
}

// A reader of another user is refused, naming its uid.
func TestPeerOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to connect as another user")
	}
	_, server := peerPair(t, dialAs(nobody))
	uid, err := peerUID(server)
	if err != nil {
		t.Fatal(err)
	}
	if uid != nobody {
		t.Fatalf("peer uid %d, want %d", uid, nobody)
	}
	err = checkPeer(server)
	if err == nil || !strings.Contains(err.Error(), "uid 65534 refused") {
		t.Errorf("a reader of uid %d: %v, want it refused", nobody, err)
	}
}
