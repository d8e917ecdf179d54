package live

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// peerPair returns both ends of a connection made to a listener in a
// fresh directory: the dialling end (by dial, or net.DialUnix when nil)
// and the end accept returned, whose peer is the dialler.
func peerPair(t *testing.T, dial func(path string) (*net.UnixConn, error)) (client, server *net.UnixConn) {
	t.Helper()
	dir, err := os.MkdirTemp("", "peercred")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if dial == nil {
		dial = func(path string) (*net.UnixConn, error) {
			return net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
		}
	}
	// Another user's dial must reach the socket: the directory and the
	// socket are open to all (nobody else can have a connection accepted
	// here before the test's, which it takes at once).
	os.Chmod(dir, 0o755)
	os.Chmod(path, 0o777)
	client, err = dial(path)
	if err != nil {
		t.Skipf("dial %s: %v", path, err)
	}
	t.Cleanup(func() { client.Close() })
	server, err = ln.AcceptUnix()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	return client, server
}

// A reader of this user is served, and the kernel names this user at both
// ends.
func TestPeerOfThisUser(t *testing.T) {
	if !ReadersChecked() {
		t.Skip("this build cannot check a reader's user")
	}
	client, server := peerPair(t, nil)
	for _, c := range []*net.UnixConn{client, server} {
		uid, err := peerUID(c)
		if err != nil {
			t.Fatal(err)
		}
		if uid != os.Getuid() {
			t.Errorf("peer uid %d, want this process's %d", uid, os.Getuid())
		}
	}
	if err := checkPeer(server); err != nil {
		t.Errorf("a reader of this user refused: %v", err)
	}
}

// An end that is not connected has no peer to name: an error, never a
// uid that could pass.
func TestPeerOfNoConnection(t *testing.T) {
	if !ReadersChecked() {
		t.Skip("this build cannot check a reader's user")
	}
	dir := t.TempDir()
	ln, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: filepath.Join(dir, "d"), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if uid, err := peerUID(ln); err == nil && uid == os.Getuid() {
		t.Errorf("an unconnected socket passed as this user's (uid %d)", uid)
	}
}
