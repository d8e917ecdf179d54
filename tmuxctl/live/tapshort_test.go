package live

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestMain lets tmux run this test binary as a pane's tap, as it runs the
// tmux-mcp binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == TapWord {
		os.Exit(RunTap(os.Args[2:], os.Stdin, os.Stderr))
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
			created, start, err := c.StartGated(ctx, tmuxctl.Placement{}, tmuxctl.Spawn{Argv: []string{"printf", want}}, tmuxctl.Gate{})
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
