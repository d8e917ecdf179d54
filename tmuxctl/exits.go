package tmuxctl

import (
	"context"
	"errors"
	"sync"
	"time"
)

// An Exit is how a pane's program ended: Status when it exited, Signal
// (such as "SIGTERM") when a signal ended it.
type Exit struct {
	Status *int
	Signal *string
}

// ErrPaneGone means a pane was removed before its exit status could be
// read: it was killed from outside.
var ErrPaneGone = errors.New("the pane was removed without an exit status")

// An ExitTracker reports programs' exit statuses on any tmux 3.2a or later.
// tmux only keeps a status while the pane stays open, so while anyone waits
// on a pane — and, for programs this server started, until they exit — the
// tracker holds it open with a pane-level remain-on-exit and a pane-died
// hook that wakes waiters at once. When the hold ends it puts the user's
// own setting back and closes a dead pane that would otherwise have
// closed. Exits it saw are remembered for the grace period, so a later
// wait still gets the status after the pane has gone.
type ExitTracker struct {
	client *Client
	hub    *Hub
	grace  time.Duration

	mu    sync.Mutex
	held  map[PaneID]*hold
	exits map[PaneID]Exit
}

type hold struct {
	prev     string // the pane's own remain-on-exit before the hold
	prevSet  bool
	waiters  int
	started  bool // a program this server started: held until it exits
	keep     bool // leave the dead pane open when the hold ends
	timer    *time.Timer
	ready    chan struct{} // closed once the hold is set up (or failed: err)
	err      error
	finished chan struct{} // set when the hold starts ending; closed when it has
}

// NewExitTracker returns a tracker for c's server. grace is how long a
// pane stays held after its last wait ends, and how long exits are kept.
func NewExitTracker(c *Client, hub *Hub, grace time.Duration) *ExitTracker {
	t := &ExitTracker{client: c, hub: hub, grace: grace, held: map[PaneID]*hold{}, exits: map[PaneID]Exit{}}
	hub.setDeathListener(t.died)
	return t
}

// Hold starts holding pane p for a waiter and returns the function that
// ends this waiter's part in it. started marks a program this server just
// started (held until it exits); keep leaves it open once dead.
func (t *ExitTracker) Hold(ctx context.Context, p PaneID, started, keep bool) (release func(), err error) {
	t.mu.Lock()
	for {
		h, ok := t.held[p]
		if !ok || h.finished == nil {
			break
		}
		// A hold is ending: let it put the user's setting back first.
		t.mu.Unlock()
		<-h.finished
		t.mu.Lock()
	}
	if h, ok := t.held[p]; ok {
		h.waiters++
		h.started = h.started || started
		h.keep = h.keep || keep
		if h.timer != nil {
			h.timer.Stop()
			h.timer = nil
		}
		t.mu.Unlock()
		<-h.ready // the first caller is still setting the hold up
		if h.err != nil {
			return nil, h.err
		}
		return t.releaser(p), nil
	}
	// Register first, so a concurrent caller joins this hold rather than
	// reading the remain-on-exit this one is about to set as the user's.
	h := &hold{waiters: 1, started: started, keep: keep, ready: make(chan struct{})}
	t.held[p] = h
	t.mu.Unlock()

	err = t.setUp(ctx, p, h)
	if err != nil {
		t.mu.Lock()
		h.err = err
		delete(t.held, p)
		t.mu.Unlock()
	}
	close(h.ready)
	if err != nil {
		return nil, err
	}
	return t.releaser(p), nil
}

// setUp remembers pane p's own remain-on-exit and turns it on.
func (t *ExitTracker) setUp(ctx context.Context, p PaneID, h *hold) error {
	// show-options succeeds for a pane that does not exist: look first.
	if _, err := t.client.Pane(ctx, p); err != nil {
		return err
	}
	prev, prevSet, err := t.client.PaneOption(ctx, p, "remain-on-exit")
	if err != nil {
		return err
	}
	h.prev, h.prevSet = prev, prevSet
	if err := t.client.SetPaneOption(ctx, p, "remain-on-exit", "on"); err != nil {
		return err
	}
	t.hub.watchDeath()
	return nil
}

func (t *ExitTracker) releaser(p PaneID) func() {
	var once sync.Once
	return func() { once.Do(func() { t.release(p) }) }
}

// release ends one waiter's hold. The last one ends the hold at once if
// the exit is known, keeps holding a started program that still runs, and
// otherwise keeps holding for the grace period.
func (t *ExitTracker) release(p PaneID) {
	t.mu.Lock()
	h, ok := t.held[p]
	if !ok {
		t.mu.Unlock()
		return
	}
	h.waiters--
	if h.waiters > 0 {
		t.mu.Unlock()
		return
	}
	_, exited := t.exits[p]
	switch {
	case exited:
		t.mu.Unlock()
		t.finish(p)
	case h.started:
		t.mu.Unlock() // died() finishes it
	default:
		h.timer = time.AfterFunc(t.grace, func() { t.finish(p) })
		t.mu.Unlock()
	}
}

// died is told by the hub that pane p's program ended or the pane closed.
func (t *ExitTracker) died(p PaneID) {
	t.mu.Lock()
	h, ok := t.held[p]
	t.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, ok := t.record(ctx, p); !ok {
		return // not dead after all, or not reaped yet: a wait or the grace will see to it
	}
	t.mu.Lock()
	idle := h.waiters == 0
	t.mu.Unlock()
	if idle {
		t.finish(p)
	}
}

// record reads and remembers pane p's exit, if it is dead.
func (t *ExitTracker) record(ctx context.Context, p PaneID) (Exit, bool) {
	if e, ok := t.recorded(p); ok {
		return e, true
	}
	pane, err := t.client.Pane(ctx, p)
	if err != nil || !pane.Dead || pane.unreaped() {
		return Exit{}, false
	}
	e := Exit{Status: pane.ExitStatus, Signal: pane.ExitSignal}
	t.mu.Lock()
	t.exits[p] = e
	t.mu.Unlock()
	time.AfterFunc(t.grace, func() {
		t.mu.Lock()
		delete(t.exits, p)
		t.mu.Unlock()
	})
	if s := t.hub.stream(p); s != nil {
		s.markDead()
	}
	return e, true
}

func (t *ExitTracker) recorded(p PaneID) (Exit, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.exits[p]
	return e, ok
}

// Recorded returns a remembered exit of pane p, for a pane already gone.
func (t *ExitTracker) Recorded(p PaneID) (Exit, bool) { return t.recorded(p) }

// finish ends the hold on p: the user's remain-on-exit comes back, the hook
// goes, and a dead pane that would have closed is closed.
func (t *ExitTracker) finish(p PaneID) {
	t.mu.Lock()
	h, ok := t.held[p]
	if !ok || h.waiters > 0 || h.finished != nil {
		t.mu.Unlock()
		return
	}
	// The hold stays in the map until the user's setting is back, so a new
	// Hold meanwhile waits instead of reading our "on" as the user's.
	h.finished = make(chan struct{})
	if h.timer != nil {
		h.timer.Stop()
	}
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.held, p)
		close(h.finished)
		t.mu.Unlock()
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Read the status before the pane can go: once it is closed, it is lost.
	e, exited := t.record(ctx, p)
	if !exited {
		if t.client.reap(ctx) == nil {
			e, exited = t.record(ctx, p)
		}
	}
	t.restoreOption(ctx, p, h)
	if h.keep {
		return
	}
	pane, err := t.client.Pane(ctx, p)
	if err != nil || !pane.Dead || !exited {
		return
	}
	v, err := t.client.paneValue(ctx, p, "remain-on-exit")
	if err != nil {
		return
	}
	failed := e.Signal != nil || e.Status != nil && *e.Status != 0
	if v == "on" || v == "failed" && failed {
		return // the user's own setting keeps it
	}
	t.client.KillPane(ctx, p)
}

func (t *ExitTracker) restoreOption(ctx context.Context, p PaneID, h *hold) {
	if h.prevSet {
		t.client.SetPaneOption(ctx, p, "remain-on-exit", h.prev)
	} else {
		t.client.UnsetPaneOption(ctx, p, "remain-on-exit")
	}
}

// Close releases every hold at once, as at shutdown: user settings come
// back and dead panes that would have closed are closed.
func (t *ExitTracker) Close() {
	t.mu.Lock()
	var panes []PaneID
	for p, h := range t.held {
		h.waiters = 0
		panes = append(panes, p)
	}
	t.mu.Unlock()
	for _, p := range panes {
		t.finish(p)
	}
}

// Wait blocks until the program in pane p ends and returns its exit. The
// caller must hold p. It returns [ErrPaneGone] if the pane is removed
// without a status, and ctx's error when ctx ends first (the program keeps
// running).
//
// The hub's pane-died hook and its layout notifications wake it as soon as
// tmux notices; a check every second, which also makes tmux reap, covers
// the exits tmux 3.3a misses until it next reaps a child.
func (t *ExitTracker) Wait(ctx context.Context, p PaneID) (Exit, error) {
	t.mu.Lock()
	_, ok := t.held[p]
	t.mu.Unlock()
	if !ok {
		return Exit{}, errors.New("wait on a pane that is not held")
	}
	var s *Stream
	if st, err := t.hub.Watch(ctx, p); err == nil {
		s = st
		defer s.Hold()() // a stream being waited on does not expire
	}
	for {
		var changed <-chan struct{}
		if s != nil {
			changed = s.Changed()
		}
		if e, ok := t.recorded(p); ok {
			return e, nil
		}
		pane, err := t.client.Pane(ctx, p)
		var nf *NotFoundError
		switch {
		case errors.As(err, &nf):
			if e, ok := t.recorded(p); ok {
				return e, nil
			}
			return Exit{}, ErrPaneGone
		case err != nil && ctx.Err() != nil:
			return Exit{}, ctx.Err()
		case err != nil:
			return Exit{}, err
		case pane.Dead:
			if e, ok := t.record(ctx, p); ok {
				return e, nil
			}
			t.client.reap(ctx) // dead but not reaped: the status comes now
			continue
		}
		select {
		case <-changed:
		case <-time.After(time.Second):
			t.client.reap(ctx)
		case <-ctx.Done():
			return Exit{}, ctx.Err()
		}
	}
}
