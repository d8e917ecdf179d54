package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestExitTrackerReportsEveryStatus runs 60 programs that exit with a
// status or die of a signal while [ExitTracker.Wait] waits on their pane,
// and checks that every one is reported exactly. tmux 3.3a often marks a
// pane dead before it has reaped the child (DESIGN §1: about one exit in
// three shows pane_dead=1 with an empty pane_dead_status until tmux next
// reaps), so a tracker that read the status too early would report a
// wrong or missing one here. It also checks that each pane, whose
// remain-on-exit is off, is closed once the wait is over, and logs the
// wall time and how long each exit took to be reported.
func TestExitTrackerReportsEveryStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("60 real tmux panes")
	}
	c, sock := client(t)
	hub := newHub(t, c, Options{})
	tracker := hub.Exits()
	ctx := context.Background()

	type ending struct {
		shell  string // how the program ends
		status int    // its exit status, or -1 when signal is set
		signal string
	}
	endings := []ending{
		{"exit 0", 0, ""},
		{"exit 1", 1, ""},
		{"exit 7", 7, ""},
		{"exit 255", 255, ""},
		{"exit 42", 42, ""},
		{"kill -TERM $$", -1, "SIGTERM"},
		{"kill -KILL $$", -1, "SIGKILL"},
		{"kill -INT $$", -1, "SIGINT"},
		{"kill -HUP $$", -1, "SIGHUP"},
		{"kill -USR1 $$", -1, "SIGUSR1"},
	}
	const trials = 60
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	tmuxCmd := quote(tmuxtest.Binary()) + " -S " + quote(sock)

	start := time.Now()
	took := make([]time.Duration, 0, trials)
	for i := range trials {
		want := endings[i%len(endings)]
		// The program waits on its own gate, so it ends only once the
		// pane is held and the wait is about to start.
		gate := fmt.Sprintf("gate-%d", i)
		p := tmuxctl.PaneID(strings.TrimSpace(tmuxtest.Run(t, sock, "new-window", "-d", "-t", "main", "-P", "-F", "#{pane_id}",
			tmuxCmd+" wait-for "+gate+"; "+want.shell)))

		release, err := tracker.Hold(ctx, p, false, false)
		if err != nil {
			t.Fatalf("trial %d: Hold(%s): %v", i, p, err)
		}
		tmuxtest.Run(t, sock, "wait-for", "-S", gate)
		began := time.Now()
		wctx, cancel := context.WithTimeout(ctx, eventBound)
		e, err := tracker.Wait(wctx, p)
		took = append(took, time.Since(began))
		cancel()
		release()
		if err != nil {
			t.Errorf("trial %d (%s): Wait(%s): %v", i, want.shell, p, err)
			continue
		}
		switch {
		case want.signal == "" && (e.Status == nil || *e.Status != want.status || e.Signal != nil):
			t.Errorf("trial %d (%s): got %s, want status %d", i, want.shell, describeExit(e), want.status)
		case want.signal != "" && (e.Status != nil || e.Signal == nil || *e.Signal != want.signal):
			t.Errorf("trial %d (%s): got %s, want signal %s", i, want.shell, describeExit(e), want.signal)
		}
		// remain-on-exit is off, so the dead pane is closed once released.
		var nf *tmuxctl.NotFoundError
		if _, err := c.Pane(ctx, p); !errors.As(err, &nf) {
			t.Errorf("trial %d: pane %s still exists after the wait (err %v); it would have closed on exit", i, p, err)
		}
	}
	wall := time.Since(start)

	sorted := slices.Clone(took)
	slices.Sort(sorted)
	slow := 0
	for _, d := range took {
		if d > 250*time.Millisecond {
			slow++
		}
	}
	t.Logf("%d exits in %v wall time; exit to report: median %v, p90 %v, max %v; %d took over 250 ms",
		trials, wall.Round(time.Millisecond), sorted[len(sorted)/2].Round(time.Microsecond),
		sorted[len(sorted)*9/10].Round(time.Microsecond), sorted[len(sorted)-1].Round(time.Microsecond), slow)
}

func describeExit(e Exit) string {
	s := "status <nil>"
	if e.Status != nil {
		s = fmt.Sprintf("status %d", *e.Status)
	}
	if e.Signal != nil {
		s += ", signal " + *e.Signal
	} else {
		s += ", signal <nil>"
	}
	return s
}

// TestKeptPaneOutlivesALaterWait starts a program held with keep, lets it
// exit and its hold end, and then waits on its dead pane again, as
// wait_for_exit does after start_program's keepPane: the later hold must
// not close the pane the first one kept (remain-on-exit is off, so a
// hold that closed every dead pane it released would).
func TestKeptPaneOutlivesALaterWait(t *testing.T) {
	c, sock := client(t)
	hub := newHub(t, c, Options{})
	tracker := hub.Exits()
	ctx := context.Background()
	tmuxCmd := tmuxtest.Binary() + " -S " + sock
	p := tmuxctl.PaneID(strings.TrimSpace(tmuxtest.Run(t, sock, "new-window", "-d", "-t", "main", "-P", "-F", "#{pane_id}",
		tmuxCmd+" wait-for go; exit 6")))
	pane, err := c.Pane(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	release, err := tracker.HoldStarted(ctx, p, pane.PID, true)
	if err != nil {
		t.Fatal(err)
	}
	release() // a started program stays held until it exits
	tmuxtest.Run(t, sock, "wait-for", "-S", "go")
	// The first hold ends on its own once the death is heard.
	deadline := time.Now().Add(eventBound)
	for {
		tracker.mu.Lock()
		_, held := tracker.held[p]
		tracker.mu.Unlock()
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the kept pane %s is still held %v after its program exited", p, eventBound)
		}
		time.Sleep(10 * time.Millisecond)
	}

	release, err = tracker.Hold(ctx, p, false, false)
	if err != nil {
		t.Fatalf("Hold(%s) of the kept dead pane: %v", p, err)
	}
	wctx, cancel := context.WithTimeout(ctx, eventBound)
	e, err := tracker.Wait(wctx, p)
	cancel()
	release()
	if err != nil || e.Status == nil || *e.Status != 6 {
		t.Errorf("Wait(%s) = %s, %v; want status 6", p, describeExit(e), err)
	}
	if pane, err := c.Pane(ctx, p); err != nil || !pane.Dead {
		t.Errorf("kept pane %s after a later wait: dead %v, err %v; want it still there, dead", p, pane.Dead, err)
	}
}
