package waiting

import (
	"context"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/screenwatch"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// pollInterval is how often a wait on a pane double-checks that the pane
// still lives: deaths normally arrive as events at once, but tmux 3.3a can
// miss a child's exit until it next reaps one.
const pollInterval = time.Second

// A Watch is a wait on one pane's output stream.
type Watch struct {
	*Wait
	hub       *live.Hub
	Pane      tmuxctl.PaneID
	lastCheck time.Time
	early     *screenwatch.Watcher // the screen as the call began (LookFirst)
}

// Watch makes w a wait on pane's stream in hub.
func (w *Wait) Watch(hub *live.Hub, pane tmuxctl.PaneID) *Watch {
	return &Watch{Wait: w, hub: hub, Pane: pane, lastCheck: time.Now()}
}

// An Opening is how a wait's prologue went.
type Opening int

const (
	Watching       Opening = iota // the stream is watched from the offset returned
	SlowToWatch                   // tmux took the whole timeout to start watching
	OnScreen                      // someone else's pipe is on the pane: watch its screen instead
	NotWatchable                  // the pane cannot be watched
	CancelledEarly                // the call was cancelled before the pane was watched
	OpenFailed                    // an error to report: a missing pane, a bad cursor
)

// Open is the prologue of a wait on a pane's stream: it finds the stream
// (from cursor, or from its end when cursor is nil) within the wait's
// setup time. A pane that cannot be streamed is OnScreen (someone else's
// pipe is on it) or NotWatchable only without a cursor: with one, the
// cursor's own error says more.
func (w *Watch) Open(cursor *string) (*live.Stream, int64, Opening, error) {
	sctx, cancel := w.Setup()
	defer cancel()
	s, start, err := StreamAt(sctx, w.hub, w.Pane, cursor)
	switch {
	case err == nil:
		// Held from here to Done: the stream must not expire while the
		// wait sets up (a look at the pane that a loaded tmux answers
		// slowly can outlast a short --stream-idle).
		w.holds = append(w.holds, s.Hold())
		return s, start, Watching, nil
	case NoStream(err) && cursor == nil:
		// Before End, which would stop the progress reports of a wait
		// that goes on watching the screen.
		if _, taken := PipeTaken(err); taken {
			return nil, 0, OnScreen, err
		}
		return nil, 0, NotWatchable, err
	}
	switch w.End(err) {
	case TimedOut:
		return nil, 0, SlowToWatch, err
	case Cancelled:
		// The wait has begun: its ending is an outcome, not an error.
		return nil, 0, CancelledEarly, err
	}
	return nil, 0, OpenFailed, err
}

// Next blocks until changed is closed (the stream has news), left has
// passed, or the wait ends, and reports whether the wait goes on. At most
// every pollInterval without news it asks the hub whether the pane died,
// which the stream then shows.
func (w *Watch) Next(changed <-chan struct{}, left time.Duration) bool {
	timer := time.NewTimer(min(left, pollInterval))
	defer timer.Stop()
	select {
	case <-changed:
	case <-timer.C:
		if time.Since(w.lastCheck) >= pollInterval {
			w.hub.CheckPane(w.Ctx, w.Pane)
			w.lastCheck = time.Now()
		}
	case <-w.Ctx.Done():
		return false
	}
	return true
}

// Forever is the left of a wait that ends only on news or its timeout.
const Forever = time.Duration(1<<63 - 1)

// SyncDeath takes in the output tmux read from the pane before it died,
// which may still be on its way when the death is seen.
func (w *Watch) SyncDeath(ctx context.Context, s *live.Stream) { SyncDeath(ctx, w.hub, s) }

// SyncDeath waits until stream s of hub holds everything its pane printed
// before it died or closed: tmux writes every byte into the pipe before it
// marks the pane dead, so what is left is in flight through the pipe. It
// waits two seconds at most, even once the call itself has ended.
func SyncDeath(ctx context.Context, hub *live.Hub, s *live.Stream) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	hub.Sync(sctx, s)
}

// A Screen is what a pane shows after a wait missed, within the bytes the
// result has left.
type Screen struct {
	Text    string
	Clamped bool // lines or bytes were left out
	OK      bool // false: the pane is gone, Text is ""
}

// Screen captures what the pane shows now, trailing blank lines dropped,
// within maxLines and maxBytes. The call's own context may be what ended
// the wait; the screen is still worth a short look.
func (w *Watch) Screen(ctx context.Context, client *tmuxctl.Client, maxLines, maxBytes int) Screen {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	lines, err := client.Capture(sctx, w.Pane, tmuxctl.CaptureOptions{})
	if err != nil {
		return Screen{}
	}
	kept := clip.Newest(clip.TrimBlankTail(lines), maxLines, maxBytes)
	return Screen{Text: kept.Text, Clamped: kept.ByteClamped || kept.DroppedLines > 0, OK: true}
}
