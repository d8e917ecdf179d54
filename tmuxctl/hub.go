package tmuxctl

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"sync"
	"time"
)

// HubOptions configure a [Hub].
type HubOptions struct {
	BufferBytes int           // text kept per pane stream
	Idle        time.Duration // a stream unread this long expires
}

// A Hub owns the control-mode connections of one tmux server and the pane
// streams they feed. tmux 3.3a reports %output only for panes in the
// session a control client is attached to, so the hub keeps one control
// client per session that has a watched pane, opened on first use and
// closed when it no longer feeds any stream.
//
// Streams survive splits, resizes, new and closed windows, renames and
// layout changes. A pane moved to another session is followed there; its
// stream records that output may have been lost in between. A stream ends
// only when its connection is lost, it expires unread, or the hub closes.
type Hub struct {
	client *Client
	size   int
	idle   time.Duration

	mu        sync.Mutex
	conns     map[SessionID]*controlConn
	streams   map[PaneID]*Stream
	byGen     map[[16]byte]*Stream
	graveyard map[[16]byte]Failure // recently ended generations, for precise errors
	closed    bool

	onDeath func(PaneID) // told when a watched pane dies or closes

	reconcileMu sync.Mutex
	dirty       chan struct{} // a topology change asks for a reconcile
	done        chan struct{}

	// deaths is the channel the hub's global pane-died hook signals; one
	// tmux wait-for child listens on it for the whole hub.
	deaths    string
	deathHook string          // this hub's slot in the global pane-died hook array
	listening bool            // a wait-for child listens on deaths (guarded by mu)
	fifoDir   string          // private directory of piped streams' FIFOs (guarded by mu)
	ownPIDs   map[int]bool    // process ids of this hub's control clients (guarded by mu)
	deadSeen  map[PaneID]bool // dead panes already announced (guarded by mu)
}

// NewHub returns a hub for c's server. It opens no connection until a pane
// is watched.
func NewHub(c *Client, o HubOptions) *Hub {
	if o.BufferBytes <= 0 {
		o.BufferBytes = 1 << 20
	}
	if o.Idle <= 0 {
		o.Idle = 10 * time.Minute
	}
	h := &Hub{
		client: c, size: o.BufferBytes, idle: o.Idle,
		conns: map[SessionID]*controlConn{}, streams: map[PaneID]*Stream{},
		byGen: map[[16]byte]*Stream{}, graveyard: map[[16]byte]Failure{}, ownPIDs: map[int]bool{},
		dirty: make(chan struct{}, 1), done: make(chan struct{}),
	}
	var b [8]byte
	rand.Read(b[:])
	h.deaths = "tmux-mcp-died-" + hex.EncodeToString(b[:])
	h.deathHook = fmt.Sprintf("pane-died[%d]", 10000+binary.BigEndian.Uint32(b[:4])%90000)
	go h.reconcileLoop()
	return h
}

// ErrHubClosed is returned by a closed hub.
var ErrHubClosed = errors.New("the stream hub is shut down")

// Watch returns the stream of pane p, starting it (and the control
// connection of p's session) if needed. Output printed after Watch returns
// is always in the stream. The stream of a pane that died is returned as
// long as it is valid, so its last output can still be read.
func (h *Hub) Watch(ctx context.Context, p PaneID) (*Stream, error) {
	h.mu.Lock()
	closed, old := h.closed, h.streams[p]
	h.mu.Unlock()
	if closed {
		return nil, ErrHubClosed
	}
	if old != nil {
		if dead, failure := old.State(); failure == "" && !dead {
			return old, nil
		}
	}
	pane, err := h.client.Pane(ctx, p)
	if err != nil {
		var nf *NotFoundError
		if errors.As(err, &nf) && old != nil {
			if _, failure := old.State(); failure == "" {
				return old, nil // gone, but its output is still readable
			}
		}
		return nil, err
	}
	if old != nil {
		if dead, failure := old.State(); failure == "" && (!dead || pane.Dead) {
			return old, nil
		}
	}
	conn, err := h.conn(ctx, pane.SessionID)
	if err != nil {
		return nil, err
	}
	s, fresh, err := h.register(p, old, conn, pane.Dead)
	if err == nil && fresh && !pane.Dead {
		// Outside h.mu: the command may go over a control connection, whose
		// reader needs h.mu to deliver the output around the reply.
		h.watchDeath()
	}
	return s, err
}

// register installs a new stream for p fed by conn, unless another call
// did meanwhile; fresh says whether it is new.
func (h *Hub) register(p PaneID, old *Stream, conn *controlConn, dead bool) (s *Stream, fresh bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false, ErrHubClosed
	}
	if cur := h.streams[p]; cur != nil && cur != old {
		if _, failure := cur.State(); failure == "" {
			return cur, false, nil // another call started it meanwhile
		}
	}
	if old != nil {
		// A dead stream of a pane that lives again (respawned).
		h.retireLocked(old, TopologyChanged)
	}
	s = newStream(h, p, h.size)
	s.owner = conn
	s.dead = dead
	h.streams[p] = s
	h.byGen[s.gen] = s
	s.mu.Lock()
	s.touchLocked()
	s.mu.Unlock()
	return s, true, nil
}

// Lookup finds the stream a cursor generation belongs to. For a
// generation that ended recently it returns the reason.
func (h *Hub) Lookup(gen [16]byte) (*Stream, Failure, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.byGen[gen]; ok {
		return s, "", true
	}
	if f, ok := h.graveyard[gen]; ok {
		return nil, f, false
	}
	return nil, "", false
}

// ParseCursor splits a cursor into its stream generation and offset.
func ParseCursor(cursor string) (gen [16]byte, off int64, err error) {
	return parseCursor(cursor)
}

// Close ends every stream with [HubClosed] and closes every connection.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	streams := h.streams
	conns := h.conns
	h.streams, h.conns = map[PaneID]*Stream{}, map[SessionID]*controlConn{}
	close(h.done)
	hooked, fifoDir := h.listening, h.fifoDir
	h.mu.Unlock()
	if hooked {
		h.removeDeathHook()
	}
	for _, s := range streams {
		s.fail(HubClosed)
	}
	for _, c := range conns {
		c.close()
	}
	if fifoDir != "" {
		os.RemoveAll(fifoDir)
	}
}

// conn returns the control connection attached to session s, opening one.
func (h *Hub) conn(ctx context.Context, s SessionID) (*controlConn, error) {
	h.mu.Lock()
	if c, ok := h.conns[s]; ok && !c.isDone() {
		h.mu.Unlock()
		return c, nil
	}
	h.mu.Unlock()
	c, err := dialControl(ctx, h, s)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		c.close()
		return nil, ErrHubClosed
	}
	if old, ok := h.conns[s]; ok && !old.isDone() {
		c.close() // lost a race with another caller
		return old, nil
	}
	h.conns[s] = c
	h.client.useControl(c)
	return c, nil
}

// retire removes a stream from the hub after it failed with f.
func (h *Hub) retireLocked(s *Stream, f Failure) {
	if h.streams[s.pane] == s {
		delete(h.streams, s.pane)
	}
	delete(h.byGen, s.gen)
	if len(h.graveyard) >= 1024 {
		for g := range h.graveyard { // forget an arbitrary old one
			delete(h.graveyard, g)
			break
		}
	}
	h.graveyard[s.gen] = f
}

// expire ends a stream nobody has read for the idle limit.
func (h *Hub) expire(s *Stream) {
	if !s.idleExpired() {
		return
	}
	h.mu.Lock()
	h.retireLocked(s, Expired)
	h.mu.Unlock()
	s.fail(Expired)
	h.closeUnusedConns()
}

// output routes pane output from conn to the stream it owns.
func (h *Hub) output(conn *controlConn, p PaneID, data []byte) {
	h.mu.Lock()
	s := h.streams[p]
	h.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	owned := s.owner == conn
	s.mu.Unlock()
	if owned {
		s.appendOutput(data)
	}
}

// paused records a %pause gap on p's stream and asks tmux to continue.
func (h *Hub) paused(conn *controlConn, p PaneID) {
	if s := h.stream(p); s != nil {
		s.mu.Lock()
		owned := s.owner == conn
		s.mu.Unlock()
		if owned {
			s.markLost()
		}
	}
	conn.send("refresh-client", "-A", string(p)+":continue")
}

// paneDead marks p's stream dead (the pane_dead subscription fired).
func (h *Hub) paneDead(p PaneID) {
	if s := h.stream(p); s != nil {
		s.markDead()
	}
	h.announceDeath(p)
}

// stream returns the current stream of p, or nil.
func (h *Hub) stream(p PaneID) *Stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[p]
}

func (h *Hub) setDeathListener(f func(PaneID)) {
	h.mu.Lock()
	h.onDeath = f
	h.mu.Unlock()
}

// announceDeath tells the listener, off the caller's goroutine: it may
// run tmux commands, which must not block a connection's reader.
func (h *Hub) announceDeath(p PaneID) {
	h.mu.Lock()
	f := h.onDeath
	h.mu.Unlock()
	if f != nil {
		go f(p)
	}
}

// topologyChanged asks for a reconcile: panes may have closed or moved.
func (h *Hub) topologyChanged() {
	select {
	case h.dirty <- struct{}{}:
	default:
	}
}

// connLost handles a control connection that ended: its streams' panes
// are checked, so a pane that is gone reads as dead, a pane that lives on
// elsewhere is re-homed, and the rest fail with [ConnectionLost].
func (h *Hub) connLost(c *controlConn) {
	h.mu.Lock()
	if sess := c.sessionID(); h.conns[sess] == c {
		delete(h.conns, sess)
	}
	h.client.dropControl(c)
	for _, other := range h.conns { // keep commands fast while any connection lives
		if !other.isDone() {
			h.client.useControl(other)
			break
		}
	}
	closed := h.closed
	h.mu.Unlock()
	if !closed {
		h.reconcile(c)
	}
}

func (h *Hub) reconcileLoop() {
	for {
		select {
		case <-h.done:
			return
		case <-h.dirty:
			h.reconcile(nil)
		}
	}
}

// reconcile compares the watched panes with the server's panes: gone panes
// are dead, moved panes are re-homed. lost, if set, is a connection that
// ended; streams it fed that cannot be re-homed fail with ConnectionLost.
func (h *Hub) reconcile(lost *controlConn) {
	h.reconcileMu.Lock()
	defer h.reconcileMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	h.mu.Lock()
	var watched []*Stream
	for _, s := range h.streams {
		watched = append(watched, s)
	}
	h.mu.Unlock()
	panes, err := h.client.ListPanes(ctx, PaneScope{})
	if err == nil {
		h.announceNewDeaths(panes)
	}
	if len(watched) == 0 {
		h.closeUnusedConns()
		return
	}
	if err != nil || len(panes) == 0 && lost != nil && !h.client.serverAlive(ctx) {
		// No server: every stream fed by a lost connection is lost.
		for _, s := range watched {
			s.mu.Lock()
			fedByLost := lost != nil && s.owner == lost || s.owner != nil && s.owner.isDone()
			s.mu.Unlock()
			if fedByLost || errors.Is(err, ErrServerGone) {
				h.failStream(s, ConnectionLost)
			}
		}
		h.closeUnusedConns()
		return
	}
	where := make(map[PaneID]Pane, len(panes))
	for _, p := range panes {
		where[p.ID] = p
	}
	for _, s := range watched {
		p, alive := where[s.pane]
		if !alive || p.Dead {
			if dead, _ := s.State(); !dead {
				s.markDead()
				h.announceDeath(s.pane)
			}
			continue // no more output will come to follow
		}
		s.mu.Lock()
		owner, piped := s.owner, s.piped
		s.mu.Unlock()
		if piped || owner != nil && !owner.isDone() && owner.sessionID() == p.SessionID {
			continue // a pipe follows its pane anywhere
		}
		// The pane moved to another session, or its connection ended:
		// follow it there.
		conn, err := h.conn(ctx, p.SessionID)
		if err != nil {
			h.failStream(s, TopologyChanged)
			continue
		}
		s.mu.Lock()
		s.owner = conn
		s.mu.Unlock()
		s.markLost() // output between leaving and re-homing may be gone
	}
	h.closeUnusedConns()
}

func (h *Hub) failStream(s *Stream, f Failure) {
	h.mu.Lock()
	h.retireLocked(s, f)
	h.mu.Unlock()
	s.fail(f)
}

// closeUnusedConns closes connections that feed no stream. A dead pane's
// stream keeps its connection: output tmux read before the death may still
// be on its way (see [Hub.Sync]).
func (h *Hub) closeUnusedConns() {
	h.mu.Lock()
	// The connection commands go over stays too: closing it would only
	// cost spawns, and a new one later (tmux 3.3a dislikes client churn).
	used := map[*controlConn]bool{h.client.control.Load(): true}
	for _, s := range h.streams {
		s.mu.Lock()
		used[s.owner] = true
		s.mu.Unlock()
	}
	var idle []*controlConn
	for sess, c := range h.conns {
		if !used[c] {
			idle = append(idle, c)
			delete(h.conns, sess)
		}
	}
	h.mu.Unlock()
	for _, c := range idle {
		c.close()
	}
}

// watchDeath makes every pane's death while remain-on-exit keeps it open
// wake the hub: tmux 3.3a sends control clients no notification for it
// (a pane that closes is noticed through layout notifications). It adds
// one entry, at an index of its own, to the global pane-died hook array,
// so users' hooks keep running. (A pane-level entry would hide them: tmux
// uses the nearest scope that sets a hook.)
func (h *Hub) watchDeath() {
	h.mu.Lock()
	if h.listening || h.closed {
		h.mu.Unlock()
		return
	}
	h.listening = true
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h.client.command(ctx, "set-hook", "-g", h.deathHook, "wait-for -S "+h.deaths)
	go h.listenDeaths()
}

// removeDeathHook takes the hub's entry out of the global hook array.
func (h *Hub) removeDeathHook() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	h.client.command(ctx, "set-hook", "-g", "-u", h.deathHook)
}

// listenDeaths waits on the death channel in a tmux child for as long as
// the hub is open, reconciling after every signal.
func (h *Hub) listenDeaths() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-h.done
		cancel()
	}()
	for ctx.Err() == nil {
		err := h.client.WaitFor(ctx, h.deaths)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			// The server went away: start again when a pane is next watched.
			h.mu.Lock()
			h.listening = false
			h.mu.Unlock()
			h.topologyChanged()
			return
		}
		h.topologyChanged()
	}
}

// CheckPane is the safety net under event-driven death detection: it makes
// tmux reap (tmux 3.3a now and then misses a child's exit until it next
// reaps one) and marks p's stream dead if the pane has died or gone.
func (h *Hub) CheckPane(ctx context.Context, p PaneID) {
	if err := h.client.reap(ctx); err != nil {
		return
	}
	pane, err := h.client.Pane(ctx, p)
	var nf *NotFoundError
	if errors.As(err, &nf) || err == nil && pane.Dead {
		if s := h.stream(p); s != nil {
			if dead, _ := s.State(); !dead {
				s.markDead()
				h.announceDeath(p)
			}
		}
	}
}

// Prime opens a control connection to some session, if there is one and
// none is open, so that commands stop costing a tmux process each. It is
// cheap to call often.
func (h *Hub) Prime(ctx context.Context) {
	if conn := h.client.control.Load(); conn != nil && !conn.isDone() {
		return
	}
	sessions, err := h.client.ListSessions(ctx)
	if err != nil || len(sessions) == 0 {
		return
	}
	h.conn(ctx, sessions[0].ID)
}

// OwnClients returns the process ids of this hub's control clients, so
// that counts of attached clients can leave them out.
func (h *Hub) OwnClients() map[int]bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.ownPIDs)
}

// ownClient records (or, with on false, forgets) a control client process.
func (h *Hub) ownClient(pid int, on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if on {
		h.ownPIDs[pid] = true
	} else {
		delete(h.ownPIDs, pid)
	}
}

// Sync waits until the control client feeding s has passed on everything
// tmux had queued for it: tmux writes a client's command replies and pane
// output in one ordered queue, so once a round trip returns, the output
// tmux read before it is in the stream. Piped streams need no sync.
func (h *Hub) Sync(ctx context.Context, s *Stream) error {
	s.mu.Lock()
	conn := s.owner
	s.mu.Unlock()
	if conn == nil || conn.isDone() {
		return nil
	}
	_, err := conn.do(ctx, "display-message", "-p", "sync")
	return err
}

// announceNewDeaths tells the death listener of panes found dead that it
// has not heard of, watched or not (a held pane's stream may have expired).
func (h *Hub) announceNewDeaths(panes []Pane) {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := make(map[PaneID]bool, len(h.deadSeen))
	for _, p := range panes {
		if !p.Dead {
			continue
		}
		seen[p.ID] = true
		if !h.deadSeen[p.ID] && h.onDeath != nil {
			go h.onDeath(p.ID)
		}
	}
	h.deadSeen = seen // forget panes that are gone or alive again
}
