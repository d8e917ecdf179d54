//go:build linux || darwin || freebsd

package pipes

import (
	"os"
	"syscall"
	"testing"
)

// What was written and not read is counted, in a pipe and in a socket
// (tmux's pipe-pane gives its command one end of a socket pair).
func TestUnread(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	sr, sw := os.NewFile(uintptr(fds[0]), "socket r"), os.NewFile(uintptr(fds[1]), "socket w")
	defer sr.Close()
	defer sw.Close()
	for _, c := range []struct {
		name string
		r, w *os.File
	}{{"pipe", r, w}, {"socket", sr, sw}} {
		if n := Unread(c.r); n != 0 {
			t.Errorf("%s: %d unread before any write", c.name, n)
		}
		if _, err := c.w.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
		if n := Unread(c.r); n != 5 {
			t.Errorf("%s: %d unread after 5 bytes written, want 5", c.name, n)
		}
		buf := make([]byte, 2)
		if _, err := c.r.Read(buf); err != nil {
			t.Fatal(err)
		}
		if n := Unread(c.r); n != 3 {
			t.Errorf("%s: %d unread after 2 of 5 read, want 3", c.name, n)
		}
	}
}
