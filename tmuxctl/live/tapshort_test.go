package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestMain lets a hub start this test binary as the stream host, as it
// starts the tmux-mcp binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HostWord {
		os.Exit(RunHost(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}

// newTapHub returns a hub whose streams are read through taps that run
// this test binary.
func newTapHub(t *testing.T) (*Hub, *tmuxctl.Client, string) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, sock := client(t)
	return newHub(t, c, Options{TapBinary: bin}), c, sock
}

// A program that prints and exits at once closes its pane, and so ends
// its tap's pipe, before the tap has even started to listen (a race-built
// tap takes far longer to start than printf to run): every byte must
// still reach the instance that started it, which then sees the pane
// gone. Several start at once, so some taps start under load.
//
// Each program exits as soon as tmux has its output on the screen, not
// before: tmux discards what a pane printed but it had not read when the
// pane's process exits (on a loaded Linux the pty hands output over late,
// and tmux then finds nothing left to read and destroys the pane), so
// output that never reached tmux is not the tap's to keep.
func TestTapKeepsShortLivedOutput(t *testing.T) {
	h, c, _ := newTapHub(t)
	ctx := context.Background()
	const programs = 8
	var wg sync.WaitGroup
	for i := range programs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := fmt.Sprintf("short-lived-%02d.", i)
			exit := filepath.Join(t.TempDir(), "exit")
			if err := syscall.Mkfifo(exit, 0o600); err != nil {
				t.Error(err)
				return
			}
			argv := []string{"sh", "-c", `printf %s "$0"; read -r _ <"$1"`, want, exit}
			created, start, err := c.StartGated(ctx, tmuxctl.Placement{}, tmuxctl.Spawn{Argv: argv}, tmuxctl.Gate{})
			if err != nil {
				t.Error(err)
				return
			}
			s, err := h.WatchPiped(ctx, created.Pane, tmuxctl.Gate{})
			if err != nil {
				t.Error(err)
				return
			}
			if s.tap == nil {
				t.Errorf("pane %s is not read through a tap", created.Pane)
			}
			if err := start(ctx); err != nil {
				t.Error(err)
				return
			}
			if err := exitOnceShown(ctx, c, created.Pane, want, exit); err != nil {
				t.Error(err)
				return
			}
			select {
			case <-s.Drained():
			case <-time.After(3 * eventBound):
				t.Errorf("pane %s: its pipe never ended", created.Pane)
				return
			}
			got, err := s.Read(0)
			if err != nil {
				t.Error(err)
				return
			}
			if string(got.Text) != want || got.Missed != 0 || got.Failed != "" {
				t.Errorf("pane %s: text %q, missed %d, failure %q; want %q, 0 and none", created.Pane, got.Text, got.Missed, got.Failed, want)
			}
		}()
	}
	wg.Wait()
}

// exitOnceShown waits until pane p shows text, which tmux has then read
// and written into the pane's pipe first, and lets its program exit by
// opening FIFO exit (its program reads end of file).
func exitOnceShown(ctx context.Context, c *tmuxctl.Client, p tmuxctl.PaneID, text, exit string) error {
	for deadline := time.Now().Add(eventBound); ; {
		rows, err := c.Capture(ctx, p, tmuxctl.CaptureOptions{})
		if err != nil {
			return err
		}
		if strings.Contains(strings.Join(rows, "\n"), text) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pane %s never showed %q", p, text)
		}
		time.Sleep(5 * time.Millisecond)
	}
	f, err := os.OpenFile(exit, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
