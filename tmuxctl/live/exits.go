package live

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
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
// tracker holds it open with a pane-level remain-on-exit, recording in the
// pane ([tmuxctl.HoldOption]) that it did and what the pane's own value
// was, so that any later instance can put it back should this one die.
// When the hold ends it puts the user's own setting back and closes a dead
// pane that would otherwise have closed. Exits it saw are remembered for
// the grace period, so a later wait still gets the status after the pane
// has gone.
//
// Deaths arrive on a channel the tracker owns and drains in its own
// goroutine.
type ExitTracker struct {
	hub    *Hub
	client *tmuxctl.Client
	ops    tmuxctl.LiveOps
	grace  time.Duration
	deaths chan tmuxctl.PaneID

	mu      sync.Mutex // never held while calling tmux or the hub
	held    map[tmuxctl.PaneID]*hold
	exits   map[tmuxctl.PaneID]exitRecord
	changed map[tmuxctl.PaneID]chan struct{} // closed when a death of the pane is reported
	closed  bool
}

// An exitRecord is a remembered exit, and whose: pane ids restart when a
// tmux server restarts, so a record only answers for the same server and
// pane process.
type exitRecord struct {
	Exit
	serverPID, panePID int
}

type hold struct {
	record   tmuxctl.Hold // the mark on the pane and the user's own value
	mark     string       // this instance's mark: record's, or a co-holder's
	ours     bool         // this instance set the hold (else another instance did)
	panePID  int
	waiters  int
	started  bool // a program this server started: held until it exits
	keep     bool // leave the dead pane open when the hold ends
	brief    bool // only while someone waits: no grace period once released
	fresh    bool // a pane just made whose program waits on its gate (HoldOpenNew)
	timer    *time.Timer
	ready    chan struct{} // closed once the hold is set up (or failed: err)
	err      error
	finished chan struct{} // set when the hold starts ending; closed when it has
}

func newExitTracker(h *Hub) *ExitTracker {
	t := &ExitTracker{
		hub: h, client: h.client, ops: h.ops, grace: h.opts.ExitGrace, deaths: make(chan tmuxctl.PaneID, 256),
		held: map[tmuxctl.PaneID]*hold{}, exits: map[tmuxctl.PaneID]exitRecord{}, changed: map[tmuxctl.PaneID]chan struct{}{},
	}
	h.goFunc(t.loop)
	return t
}

// notify reports that pane p died or closed.
func (t *ExitTracker) notify(p tmuxctl.PaneID) {
	t.mu.Lock()
	if ch, ok := t.changed[p]; ok {
		close(ch)
		delete(t.changed, p)
	}
	_, held := t.held[p]
	t.mu.Unlock()
	if !held {
		return
	}
	select {
	case t.deaths <- p:
	case <-t.hub.done:
	}
}

// loop handles reported deaths of held panes until the hub closes. Every
// few seconds it also looks at started programs nobody waits on: tmux 3.3a
// now and then misses a child's exit until it next reaps one, and with no
// waiter asking, nothing else would make it.
func (t *ExitTracker) loop() {
	tick := time.NewTicker(t.hub.opts.UnwatchedCheck)
	defer tick.Stop()
	for {
		select {
		case p := <-t.deaths:
			t.died(p)
		case <-tick.C:
			t.checkUnwatched()
		case <-t.hub.done:
			return
		}
	}
}

// unwatchedCheck is how often started programs that nobody waits on are
// checked for a missed exit, unless Options say otherwise.
const unwatchedCheck = 2 * time.Second

// checkUnwatched makes tmux reap, then handles any started program held
// with no waiter that has died.
func (t *ExitTracker) checkUnwatched() {
	t.mu.Lock()
	var panes []tmuxctl.PaneID
	for p, h := range t.held {
		if h.started && h.waiters == 0 && h.finished == nil {
			panes = append(panes, p)
		}
	}
	t.mu.Unlock()
	if len(panes) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(t.hub.ctx, stepTimeout)
	defer cancel()
	if t.ops.Reap(ctx) != nil {
		return
	}
	for _, p := range panes {
		pane, err := t.client.Pane(ctx, p)
		var nf *tmuxctl.NotFoundError
		switch {
		case errors.As(err, &nf):
			t.finish(ctx, p) // gone without a status: nothing left to hold
		case err == nil && pane.Dead:
			t.died(p)
		}
	}
}

// deathOf returns a channel closed at the next reported death of p.
func (t *ExitTracker) deathOf(p tmuxctl.PaneID) <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	ch, ok := t.changed[p]
	if !ok {
		ch = make(chan struct{})
		t.changed[p] = ch
	}
	return ch
}

// Hold starts holding pane p for a waiter and returns the function that
// ends this waiter's part in it. started marks a program this server just
// started (held until it exits); keep leaves it open once dead.
func (t *ExitTracker) Hold(ctx context.Context, p tmuxctl.PaneID, started, keep bool) (release func(), err error) {
	return t.hold(ctx, p, started, keep, false)
}

// HoldStarted is [ExitTracker.Hold] of a program this server started in a
// pane it has just made, whose process id pid it knows: started, held
// until it exits.
func (t *ExitTracker) HoldStarted(ctx context.Context, p tmuxctl.PaneID, pid int, keep bool) (release func(), err error) {
	return t.holdPID(ctx, p, pid, true, keep, false, false)
}

// Remember records how the program of pane p (process pid, on tmux server
// serverPID) ended, learnt some other way than from tmux (its exit
// marker), for a later wait on the pane once it has gone.
func (t *ExitTracker) Remember(p tmuxctl.PaneID, e Exit, serverPID, pid int) {
	t.mu.Lock()
	t.exits[p] = exitRecord{Exit: e, serverPID: serverPID, panePID: pid}
	t.mu.Unlock()
	t.forgetLater(p, serverPID, pid)
}

// forgetLater forgets the exit of p recorded for serverPID and pid once
// the grace period has passed.
func (t *ExitTracker) forgetLater(p tmuxctl.PaneID, serverPID, pid int) {
	time.AfterFunc(t.grace, func() {
		t.mu.Lock()
		if r, ok := t.exits[p]; ok && r.serverPID == serverPID && r.panePID == pid {
			delete(t.exits, p)
		}
		t.mu.Unlock()
	})
}

// HoldBriefly holds pane p only while the caller waits: released, the hold
// ends at once, with no grace period, unless another waiter holds it too.
// It is for the first moments of a program made to run on its own (a new
// session's shell, say), to catch one that cannot start without holding
// the pane for its whole life.
func (t *ExitTracker) HoldBriefly(ctx context.Context, p tmuxctl.PaneID) (release func(), err error) {
	return t.hold(ctx, p, false, false, true)
}

// HoldNewBriefly is [ExitTracker.HoldBriefly] of a pane just made, whose
// process id pid the caller knows.
// Its program must not have started yet (it waits on its gate): the hold
// is then made without being read back ([tmuxctl.LiveOps.HoldOpenNew]).
func (t *ExitTracker) HoldNewBriefly(ctx context.Context, p tmuxctl.PaneID, pid int) (release func(), err error) {
	return t.holdPID(ctx, p, pid, false, false, true, true)
}

// Died returns a channel closed at the next reported death (or closing)
// of pane p.
func (t *ExitTracker) Died(p tmuxctl.PaneID) <-chan struct{} { return t.deathOf(p) }

// Ended returns the exit of pane p's program, process pid, if the
// tracker has read it (while holding the pane, or as its hold ended).
func (t *ExitTracker) Ended(p tmuxctl.PaneID, pid int) (Exit, bool) { return t.recorded(p, 0, pid) }

func (t *ExitTracker) hold(ctx context.Context, p tmuxctl.PaneID, started, keep, brief bool) (release func(), err error) {
	return t.holdPID(ctx, p, 0, started, keep, brief, false)
}

// holdPID is hold of a pane whose process id is pid (0: not known yet);
// fresh is a pane just made, whose program has not started.
func (t *ExitTracker) holdPID(ctx context.Context, p tmuxctl.PaneID, pid int, started, keep, brief, fresh bool) (release func(), err error) {
	if err := t.hub.ready(ctx); err != nil {
		return nil, err
	}
	t.mu.Lock()
	for {
		if t.closed {
			t.mu.Unlock()
			return nil, ErrHubClosed
		}
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
		h.brief = h.brief && brief
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
	h := &hold{waiters: 1, started: started, keep: keep, brief: brief, fresh: fresh, ready: make(chan struct{})}
	t.held[p] = h
	t.mu.Unlock()

	err = t.setUp(ctx, p, pid, h)
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

// setUp turns pane p's remain-on-exit on, recording the pane's own value
// in tmux, and makes sure deaths are heard.
func (t *ExitTracker) setUp(ctx context.Context, p tmuxctl.PaneID, pid int, h *hold) error {
	t.mu.Lock() // a waiter joining meanwhile may clear brief
	brief := h.brief
	t.mu.Unlock()
	nonce := tmuxctl.Nonce(4)
	if brief {
		nonce = tmuxctl.BriefHold + nonce // another instance may take it over
	}
	mark := t.hub.id + "." + nonce
	var rec tmuxctl.Hold
	var err error
	if h.fresh {
		rec, err = t.ops.HoldOpenNew(ctx, p, mark, pid)
	} else {
		rec, err = t.ops.HoldOpen(ctx, p, mark, pid)
	}
	if err != nil {
		return err
	}
	if pid == 0 {
		pid = rec.PanePID
	}
	t.mu.Lock() // checkFresh may read them from a death meanwhile
	h.record, h.mark, h.ours, h.panePID = rec, mark, rec.Ours(mark), pid
	t.mu.Unlock()
	t.hub.listenForDeaths(ctx)
	return nil
}

func (t *ExitTracker) releaser(p tmuxctl.PaneID) func() {
	var once sync.Once
	return func() { once.Do(func() { t.release(p) }) }
}

// release ends one waiter's hold. The last one ends the hold at once if
// the exit is known, keeps holding a started program that still runs, and
// otherwise keeps holding for the grace period.
func (t *ExitTracker) release(p tmuxctl.PaneID) {
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
		t.finish(t.hub.ctx, p)
	case h.started:
		t.mu.Unlock() // died() finishes it
	case h.brief:
		t.mu.Unlock()
		t.finish(t.hub.ctx, p)
	default:
		h.timer = time.AfterFunc(t.grace, func() { t.hub.goFunc(func() { t.finish(t.hub.ctx, p) }) })
		t.mu.Unlock()
	}
}

// died handles a reported death of held pane p.
func (t *ExitTracker) died(p tmuxctl.PaneID) {
	t.mu.Lock()
	h, ok := t.held[p]
	t.mu.Unlock()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(t.hub.ctx, stepTimeout)
	defer cancel()
	if _, ok := t.record(ctx, p); !ok {
		return // not dead after all, or not reaped yet: a wait or the grace will see to it
	}
	t.mu.Lock()
	idle := h.waiters == 0
	t.mu.Unlock()
	if idle {
		t.finish(t.hub.ctx, p)
	}
}

// record reads and remembers pane p's exit, if it is dead.
func (t *ExitTracker) record(ctx context.Context, p tmuxctl.PaneID) (Exit, bool) {
	e, ok, _ := t.recordPane(ctx, p)
	return e, ok
}

// recordPane is record that also says whether the pane is dead but tmux
// has not reaped its program yet (only then can a reap help).
func (t *ExitTracker) recordPane(ctx context.Context, p tmuxctl.PaneID) (_ Exit, _ bool, unreaped bool) {
	pane, err := t.client.Pane(ctx, p)
	if err == nil {
		t.checkFresh(pane)
	}
	if err != nil || !pane.Dead || pane.Unreaped() {
		e, ok := t.recorded(p, 0, 0)
		return e, ok, err == nil && pane.Unreaped()
	}
	e := Exit{Status: pane.ExitStatus, Signal: pane.ExitSignal}
	t.mu.Lock()
	t.exits[p] = exitRecord{Exit: e, serverPID: pane.ServerPID, panePID: pane.PID}
	t.mu.Unlock()
	t.forgetLater(p, pane.ServerPID, pane.PID)
	t.hub.streamDied(p) // its stream, if any, settles and ends its pipe
	return e, true, false
}

// checkFresh settles whose a fresh hold of pane is, which HoldOpenNew
// did not read back: it is this instance's only if the pane is held under
// its mark (else another instance held it first, and puts it back).
func (t *ExitTracker) checkFresh(pane tmuxctl.Pane) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok := t.held[pane.ID]
	if !ok || !h.fresh || !h.ours || h.panePID != pane.PID {
		return
	}
	if rec, ok := tmuxctl.ParseHold(pane.HoldMark); !ok || !rec.Ours(h.record.Mark) {
		h.ours = false
	}
}

// recorded returns a remembered exit of p, if it belongs to server
// serverPID and pane process panePID (0 matches any).
func (t *ExitTracker) recorded(p tmuxctl.PaneID, serverPID, panePID int) (Exit, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.exits[p]
	if !ok || serverPID != 0 && r.serverPID != serverPID || panePID != 0 && r.panePID != panePID {
		return Exit{}, false
	}
	return r.Exit, true
}

// Recorded returns a remembered exit of pane p, for a pane already gone,
// provided the tmux server is still the one the pane belonged to.
func (t *ExitTracker) Recorded(ctx context.Context, p tmuxctl.PaneID) (Exit, bool) {
	server, err := t.ops.ServerPID(ctx)
	if errors.Is(err, tmuxctl.ErrServerGone) {
		server = 0 // the server went; what it reported before still stands
	} else if err != nil {
		return Exit{}, false
	}
	return t.recorded(p, server, 0)
}

// finish ends the hold on p: the user's remain-on-exit comes back, and a
// dead pane that would have closed is closed.
func (t *ExitTracker) finish(ctx context.Context, p tmuxctl.PaneID) {
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
	<-h.ready
	if h.err != nil {
		return
	}

	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	// Read the status before the pane can go: once it is closed, it is lost.
	// tmux 3.3a now and then misses a child's exit until it next reaps
	// one, so a reap precedes giving up a status — except after a brief
	// hold, whose waiter (a launch) has just waited for the exit itself,
	// unless tmux shows the pane dead but not reaped.
	// An exit already recorded (by died, just before) is not read again.
	e, exited := t.recorded(p, 0, h.panePID)
	t.mu.Lock()
	quick := h.fresh && h.brief && h.ours
	t.mu.Unlock()
	if !exited && quick {
		// A launch's check of a new pane, most often still running:
		// one command puts the user's setting back if it is, and
		// otherwise reads the pane, dead or held by another, for the
		// general case below.
		pane, released, err := t.ops.ReleaseLiveHold(ctx, p, h.record)
		if err == nil && released {
			return
		}
		if err == nil {
			t.checkFresh(pane)
		}
	}
	if !exited {
		var unreaped bool
		e, exited, unreaped = t.recordPane(ctx, p)
		if !exited && (unreaped || !h.brief) && t.ops.Reap(ctx) == nil {
			e, exited = t.record(ctx, p)
		}
	}
	t.mu.Lock()
	ours, mark := h.ours, h.mark
	t.mu.Unlock()
	if !ours {
		// Another instance holds it: leave its co-holders, unless it has
		// handed the hold to us meanwhile or died.
		rec, owner, err := t.ops.LeaveHold(ctx, p, mark, markAlive)
		if err != nil || !owner {
			return
		}
		t.mu.Lock()
		h.record.Mark, h.record.Prev, h.record.PrevSet = rec.Mark, rec.Prev, rec.PrevSet
		t.mu.Unlock()
	}
	others := func(m string) bool { return m != mark && markAlive(m) }
	if released, err := t.ops.ReleaseHold(ctx, p, h.record, others); err != nil || !released {
		return // handed to another instance that waits on it: it stays
	}
	// A pane already dead when held stayed open for another reason (a
	// kept pane, waited on again): only a death while held is ours to
	// close.
	if h.keep || !exited || h.record.DeadBefore {
		return
	}
	// Closed only if still dead with the same process: KillDeadPane checks
	// both in tmux itself.
	closeIfWouldHave(ctx, t.ops, tmuxctl.Pane{ID: p, PID: h.panePID, Dead: true, ExitStatus: e.Status, ExitSignal: e.Signal})
}

// close releases every hold at once, as at shutdown: user settings come
// back and dead panes that would have closed are closed, within ctx.
func (t *ExitTracker) close(ctx context.Context) {
	t.mu.Lock()
	t.closed = true
	var panes []tmuxctl.PaneID
	for p, h := range t.held {
		h.waiters = 0
		panes = append(panes, p)
	}
	t.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range panes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.finish(ctx, p)
		}()
	}
	wg.Wait()
}

// Wait blocks until the program in pane p ends and returns its exit. The
// caller must hold p. It returns [ErrPaneGone] if the pane is removed
// without a status, and ctx's error when ctx ends first (the program keeps
// running).
//
// The hub's death listener and the pane's pipe wake it as soon as tmux
// notices; a check every second, which also makes tmux reap, covers the
// exits tmux 3.3a misses until it next reaps a child, and panes killed
// from outside (which no hook reports).
func (t *ExitTracker) Wait(ctx context.Context, p tmuxctl.PaneID) (Exit, error) {
	t.mu.Lock()
	h, ok := t.held[p]
	t.mu.Unlock()
	if !ok {
		return Exit{}, errors.New("wait on a pane that is not held")
	}
	for {
		changed := t.deathOf(p)
		pane, err := t.client.Pane(ctx, p)
		var nf *tmuxctl.NotFoundError
		switch {
		case errors.As(err, &nf):
			if e, ok := t.recorded(p, 0, h.panePID); ok {
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
			t.ops.Reap(ctx) // dead but not reaped: the status comes now
			continue
		}
		select {
		case <-changed:
		case <-time.After(time.Second):
			t.ops.Reap(ctx)
		case <-ctx.Done():
			return Exit{}, ctx.Err()
		}
	}
}
