package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// hostOf returns the stream host pane p's mark names, waiting for one.
func hostOf(t *testing.T, c *tmuxctl.Client, p tmuxctl.PaneID) tapInfo {
	t.Helper()
	for deadline := time.Now().Add(eventBound); ; time.Sleep(5 * time.Millisecond) {
		pane, err := c.Pane(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if info, ok := parseTapMark(pane.PipeMark); ok && isHostSocket(info.socket) && info.pid != 0 {
			return info
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s is marked %q, not with a stream host", p, pane.PipeMark)
		}
	}
}

// awaitGone waits until process pid has exited.
func awaitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(eventBound + tapDrainGrace); processAlive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
	}
}

// A hub whose host cannot start (here a "host" binary that exits at once)
// reads panes through FIFOs of its own, at once for later panes.
func TestUnstartableHostMeansFIFOs(t *testing.T) {
	c, sock := client(t)
	h := newHub(t, c, Options{TapBinary: "true"})
	ctx := context.Background()
	s, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s.tap != nil {
		t.Fatal("pane %0 is read through a stream host that cannot start")
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo via-fifo", "Enter")
	waitText(t, s, 0, "via-fifo")
	if !h.hostless.Load() {
		t.Error("the hub goes on trying to start a host that cannot start")
	}
}

// The host killed mid-stream: every instance's stream of its panes fails
// (ConnectionLost, there before the stream says it has drained, so no
// reader takes an empty stream for a pane that printed nothing), a cursor
// of that generation is refused with that reason, the pane's pipe ends,
// and the next watch starts a new host with a new generation.
func TestHostKilledMidStream(t *testing.T) {
	h, c, sock := newTapHub(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	h2 := newHub(t, newClient(sock), Options{TapBinary: self})
	ctx := context.Background()
	s, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	s2, err := h2.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s2.gen != s.gen {
		t.Fatalf("the second instance reads generation %x, not the first's %x", s2.gen, s.gen)
	}
	info := hostOf(t, c, "%0")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "while :; do echo tick; sleep 0.01; done", "Enter")
	waitText(t, s, 0, "tick")
	waitText(t, s2, 0, "tick")
	if err := syscall.Kill(info.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for _, st := range []*Stream{s, s2} {
		select {
		case <-st.Drained():
		case <-time.After(eventBound):
			t.Fatal("a stream of the killed host never ended")
		}
		got, err := st.Read(0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Failed != ConnectionLost {
			t.Errorf("stream drained with failure %q; want %q", got.Failed, ConnectionLost)
		}
	}
	if _, f, ok := h.Lookup(s.gen); ok || f != ConnectionLost {
		t.Errorf("a cursor of the killed host's stream: found %v, failure %q; want it refused as %q", ok, f, ConnectionLost)
	}
	// The relay's next write fails: tmux closes the pipe (or the
	// instance that saw the loss closed it, guarded by its mark).
	for deadline := time.Now().Add(eventBound); ; time.Sleep(10 * time.Millisecond) {
		pane, err := c.Pane(ctx, "%0")
		if err != nil {
			t.Fatal(err)
		}
		if info, ok := parseTapMark(pane.PipeMark); !pane.Piped || !ok || info.gen != s.gen {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %%0 is still piped to the killed host (marked %q)", pane.PipeMark)
		}
	}
	s3, err := h.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if s3.gen == s.gen || s3.tap == nil {
		t.Fatalf("after the host's death pane %%0 is read from generation %x (tapped %v), want a new stream in a new host", s3.gen, s3.tap != nil)
	}
	if next := hostOf(t, c, "%0"); next.pid == info.pid || !processAlive(next.pid) {
		t.Errorf("pane %%0's new stream names host %d, want a new, running one", next.pid)
	}
	off := s3.End()
	waitText(t, s3, off, "tick")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "C-c", "")
}

// A host with no stream left ends after its grace, taking its socket,
// lock file and directory with it; its panes' idle streams have closed
// their pipes and cleared their marks.
func TestHostEndsWhenIdle(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := client(t)
	h := newHub(t, c, Options{TapBinary: bin, Idle: 300 * time.Millisecond})
	ctx := context.Background()
	if _, err := h.Watch(ctx, "%0"); err != nil {
		t.Fatal(err)
	}
	info := hostOf(t, c, "%0")
	h.Close()
	awaitGone(t, info.pid, "the idle host")
	pane, err := c.Pane(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	if pane.Piped || pane.PipeMark != "" {
		t.Errorf("pane %%0 is left piped %v, marked %q", pane.Piped, pane.PipeMark)
	}
	dir := filepath.Dir(info.socket)
	for _, path := range []string{info.socket, hostLockPath(info.socket), dir} {
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is left behind (%v)", path, err)
		}
	}
}

// Two tmux-mcp versions on one tmux server: each starts a host of its
// own protocol version (socket "host<version>.sock"), and reads the
// panes the other's host pipes through the one reader wire, or as
// someone else's pipe; neither ever gets a wrong answer.
func TestTwoHostVersions(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, sock := client(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0")
	h1 := newHub(t, c, Options{TapBinary: bin})
	t.Setenv(hostProtoEnv, "4")
	h2 := newHub(t, newClient(sock), Options{TapBinary: bin})
	ctx := context.Background()
	a1, err := h1.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	b2, err := h2.Watch(ctx, "%1")
	if err != nil {
		t.Fatal(err)
	}
	one, two := hostOf(t, c, "%0"), hostOf(t, c, "%1")
	if filepath.Base(one.socket) != "host"+hostProtoDefault+".sock" || filepath.Base(two.socket) != "host4.sock" || one.pid == two.pid {
		t.Fatalf("hosts %s (pid %d) and %s (pid %d): want one per version", one.socket, one.pid, two.socket, two.pid)
	}
	a2, err := h2.Watch(ctx, "%0")
	if err != nil {
		t.Fatal(err)
	}
	b1, err := h1.Watch(ctx, "%1")
	if err != nil {
		t.Fatal(err)
	}
	if a2.gen != a1.gen || b1.gen != b2.gen {
		t.Errorf("each pane is read from one stream by both versions: %x/%x, %x/%x", a1.gen, a2.gen, b1.gen, b2.gen)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "echo pane-zero", "Enter")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "echo pane-one", "Enter")
	for _, s := range []*Stream{a1, a2} {
		waitText(t, s, 0, "pane-zero")
	}
	for _, s := range []*Stream{b1, b2} {
		waitText(t, s, 0, "pane-one")
	}
	// A control request of the other version is never taken by a host.
	conn, err := net.Dial("unix", one.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(eventBound))
	fmt.Fprintln(conn, hostHello("4")+" new 00000000000000000000000000000001 1024 1m")
	reply, _ := bufio.NewReader(conn).ReadString('\n')
	if strings.HasPrefix(reply, "ok") {
		t.Errorf("the version-%s host took a version-4 request: %q", hostProtoDefault, reply)
	}
}
