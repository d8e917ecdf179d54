package live

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// A tapConn is a stream's connection to its pane's tap.
type tapConn struct {
	info    tapInfo
	mu      sync.Mutex // guards conn and br, set late for a tap of our own
	conn    *net.UnixConn
	br      *bufio.Reader
	closing atomic.Bool // this instance closed it: not a loss
	// joined, for a tap of our own, is closed once its connection is made
	// or has failed; nil for a tap joined synchronously.
	joined chan struct{}
	// gate, for a program this instance started with an ack, is acked
	// when the program's exit marker (known by the gate's nonce, which
	// only this instance has) comes from the tap, after all its output.
	gate  tmuxctl.Gate
	acked bool // only the feeding goroutine uses it

	// Syncs: asked counts "sync" lines sent, answered the Y frames read;
	// synced is closed and replaced on each answer.
	syncMu   sync.Mutex
	asked    int64
	answered int64
	synced   chan struct{}
}

// tapSyncBound bounds one sync with a tap: a reader never waits longer
// than this for output the tap already holds.
const tapSyncBound = 250 * time.Millisecond

// sync waits until this stream has everything the tap held when asked,
// so that a call sees all that tmux has already handed the tap. A slow or
// gone tap only delays it by tapSyncBound.
func (tc *tapConn) sync(ctx context.Context) { tc.syncWithin(ctx, tapSyncBound) }

// syncWithin is sync with bound in place of tapSyncBound: the host answers
// a sync only once the pane's relay reads, which can take longer.
func (tc *tapConn) syncWithin(ctx context.Context, bound time.Duration) {
	if tc.joined != nil {
		// A tap of our own that is still starting: what it reads is ours
		// to see once it answers.
		select {
		case <-tc.joined:
		case <-time.After(tapJoinPatience):
			return
		case <-ctx.Done():
			return
		}
	}
	tc.mu.Lock()
	conn := tc.conn
	tc.mu.Unlock()
	if conn == nil || tc.closing.Load() {
		return
	}
	tc.syncMu.Lock()
	if tc.synced == nil {
		tc.synced = make(chan struct{})
	}
	tc.asked++
	want := tc.asked
	tc.syncMu.Unlock()
	conn.SetWriteDeadline(time.Now().Add(tapSyncBound))
	if _, err := conn.Write([]byte(tapSyncReq)); err != nil {
		return
	}
	timeout := time.After(bound)
	for {
		tc.syncMu.Lock()
		done, ch := tc.answered >= want, tc.synced
		tc.syncMu.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-timeout:
			return
		case <-ctx.Done():
			return
		}
	}
}

// gotSync records one Y frame.
func (tc *tapConn) gotSync() {
	tc.syncMu.Lock()
	defer tc.syncMu.Unlock()
	tc.answered++
	if tc.synced != nil {
		close(tc.synced)
	}
	tc.synced = make(chan struct{})
}

// syncTap brings a tapped stream up to what its tap holds (see
// tapConn.sync); other streams need nothing.
func (s *Stream) syncTap(ctx context.Context) {
	if s != nil && s.tap != nil && !s.isDead() {
		s.tap.sync(ctx)
	}
}

// tapJoinPatience is how long a tap that was just started (by this
// instance or another) has to answer on its socket.
const tapJoinPatience = 5 * time.Second

// A tap's socket is dialled every tapDialStep for tapDialFast, then with
// pauses that double up to tapDialSlow; whether the tap may still answer
// is asked of tmux (a command) after tapDialCheck, then every
// tapDialFast. A failed dial costs about 30 µs; Go's timers on Linux
// wake no sooner than 1 ms.
const (
	tapDialStep  = time.Millisecond
	tapDialFast  = 100 * time.Millisecond
	tapDialSlow  = 20 * time.Millisecond
	tapDialCheck = 20 * time.Millisecond
)

// startTapStream reads pane p through its stream in the stream host:
// the one already on the pane (of the host, or of an older version's tap
// of its own), or one this instance asks the host for (pre, if not nil,
// asked already). A pane whose pipe is someone else's gets
// [tmuxctl.PipeTakenError]. Where no host can be
// started, the pane is read through a FIFO of this instance's own.
func (h *Hub) startTapStream(ctx context.Context, p tmuxctl.PaneID, gate tmuxctl.Gate, pre *AskedStream) (*Stream, error) {
	for attempt := 0; ; attempt++ {
		var gen [16]byte
		var mine tapInfo
		var fifo string
		var err error
		if attempt == 0 && pre != nil {
			gen, mine, fifo, err = pre.take(ctx)
		} else {
			tmuxctl.NonceBytes(gen[:])
			mine, fifo, err = h.newHostStream(ctx, gen)
		}
		if errors.Is(err, errNoHost) {
			return h.startFIFOStream(ctx, p, gate)
		}
		if err != nil {
			return nil, err
		}
		pane, opened, err := h.ops.OpenPipe(ctx, p, hostRelayCommand(fifo, string(p)), mine.mark)
		var taken *tmuxctl.PipeTakenError
		var nf *tmuxctl.NotFoundError
		switch {
		case err == nil && !opened || errors.As(err, &taken) || errors.As(err, &nf):
			h.dropHostStream(gen) // no relay of ours starts
		case err != nil:
			// A context that ended as tmux ran the command, say: the
			// relay starts if the pane bears our mark. The host then
			// keeps the stream, which ends by its idle limit.
			h.dropUnlessMarked(p, gen, mine.mark)
		}
		var info tapInfo
		ours := false
		switch {
		case errors.As(err, &taken):
			ti, ok := parseTapMark(taken.Mark)
			if !ok {
				if attempt == 0 && h.ownMark(taken.Mark) {
					// A FIFO pipe of ours whose stream ended but is not closed yet.
					h.ops.ClosePipe(ctx, p, taken.Mark)
					continue
				}
				return nil, err
			}
			info = ti
		case err != nil:
			return nil, err
		case !opened && pane.Dead:
			return deadStream(h, p), nil
		case !opened:
			return nil, fmt.Errorf("pane %s: its pipe could not be opened", p)
		default:
			info, ours = mine, true
		}
		if ours {
			// The host reads the pane from its first byte, so the stream
			// can be returned now and joined in the background: output
			// printed after this returns reaches it all the same.
			return h.followOwnTap(p, info, gate)
		}
		s, err := h.joinTap(ctx, p, info, gate)
		switch {
		case err == nil:
			return s, nil
		case ctx.Err() != nil || errors.Is(err, ErrHubClosed):
			return nil, err
		case attempt < 2 && (errors.Is(err, errStreamGone) || tapGone(h, p, info)):
			// A host or tap that died and left its mark, one that never
			// started, or a stream its host no longer has.
			h.ops.ClosePipe(ctx, p, info.baseMark())
			continue
		}
		return nil, err
	}
}

// errStreamGone is a refusal from a stream host that has no stream of the
// generation asked for.
var errStreamGone = errors.New("its stream host has no such stream")

// newHostStream asks the stream host (started if need be) for a stream of
// generation gen, and returns what the pane's mark is to say and the FIFO
// its relay writes into.
func (h *Hub) newHostStream(ctx context.Context, gen [16]byte) (tapInfo, string, error) {
	if h.hostless.Load() {
		return tapInfo{}, "", errNoHost
	}
	socket := hostSocket(h.client.SocketPath(), h.proto)
	f, err := h.hostCall(ctx, "new", hex.EncodeToString(gen[:]), strconv.Itoa(h.opts.BufferBytes), h.opts.Idle.String())
	if errors.Is(err, errNoHost) {
		h.hostless.Store(true)
	}
	if err != nil {
		return tapInfo{}, "", err
	}
	pid := 0
	if len(f) == 2 {
		pid, _ = strconv.Atoi(f[1])
	}
	if pid <= 0 || !plainPath(f[0]) {
		return tapInfo{}, "", fmt.Errorf("the stream host (%s) answered %q", socket, f)
	}
	mark := tapMark(gen, socket) + "." + f[1]
	return tapInfo{mark: mark, gen: gen, socket: socket, pid: pid}, f[0], nil
}

// dropUnlessMarked drops the host's stream of generation gen unless pane
// p bears its mark (the pipe was opened after all), asking tmux with a
// bound of its own: the caller's context may be what ended.
func (h *Hub) dropUnlessMarked(p tmuxctl.PaneID, gen [16]byte, mark string) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	if pane, err := h.client.Pane(ctx, p); err == nil && pane.PipeMark == mark {
		return
	}
	h.dropHostStream(gen)
}

// dropHostStream tells the stream host that the relay of generation gen
// will not come (errors are ignored: the host drops it after
// hostRelayPatience anyway).
func (h *Hub) dropHostStream(gen [16]byte) {
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	h.hostCallNoStart(ctx, "drop", hex.EncodeToString(gen[:]))
}

// tapGone reports whether the tap info names has died or never started
// (and is not starting still).
func tapGone(h *Hub, p tmuxctl.PaneID, info tapInfo) bool {
	if pid := tapPID(h, p, info); pid != 0 {
		return !processAlive(pid)
	}
	return !tapStarting(info)
}

// followOwnTap returns the stream of a pane this instance has just piped
// into the stream host and joins it in the background.
func (h *Hub) followOwnTap(p tmuxctl.PaneID, info tapInfo, gate tmuxctl.Gate) (*Stream, error) {
	s := newStream(h, p, h.opts.BufferBytes)
	s.gen, s.mark = info.gen, info.baseMark()
	tc := &tapConn{info: info, joined: make(chan struct{}), gate: gate, acked: !gate.Ack}
	s.tap = tc
	if !h.goFunc(func() {
		conn, br, head, err := h.dialTap(h.ctx, p, info, true)
		if err != nil {
			close(tc.joined)
			// The failure goes in before the drain is announced: a reader
			// woken by Drained must never find an empty stream that has
			// not failed, as if the pane had printed nothing.
			h.retire(s, ConnectionLost)
			s.mu.Lock()
			s.pipeEnded = true
			s.mu.Unlock()
			close(s.drained)
			// A tap that never recorded itself after tapJoinPatience,
			// and is not starting still, never ran: its pipe is closed
			// (guarded by its mark). One that ran cleans up itself. A
			// hub that shuts down while its tap is still starting (an
			// instance that typed and exited at once, a race-built tap
			// slow to start) has not waited: the tap is the pane's now,
			// for the next instance to join, and ends by itself (its
			// idle limit); one that never starts is the start-up
			// sweep's.
			select {
			case <-h.done:
				return
			default:
			}
			if tapPID(h, p, info) == 0 && !tapStarting(info) {
				ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
				defer cancel()
				h.ops.ClosePipe(ctx, p, info.baseMark())
			}
			return
		}
		s.applyTap(tapSkip, offsetPayload(head.Start)) // if its ring overran already
		tc.mu.Lock()
		tc.conn, tc.br = conn, br
		closing := tc.closing.Load()
		tc.mu.Unlock()
		if closing {
			conn.Close()
		}
		close(tc.joined)
		h.feedTap(s, tc)
	}) {
		return nil, ErrHubClosed
	}
	return s, nil
}

// dialTap connects to the tap (or stream host) info names and reads its
// header; opener is true when this instance opened the pane's pipe. It
// waits for a tap that is starting, but not for one that has died.
func (h *Hub) dialTap(ctx context.Context, p tmuxctl.PaneID, info tapInfo, opener bool) (*net.UnixConn, *bufio.Reader, tapHeaderBody, error) {
	var head tapHeaderBody
	if fi, err := os.Lstat(filepath.Dir(info.socket)); err == nil && (!fi.IsDir() || fi.Mode().Perm() != 0o700 || !ownedByMe(fi)) {
		return nil, nil, head, fmt.Errorf("pane %s: its tap's directory %s is not private to this user", p, filepath.Dir(info.socket))
	}
	start := time.Now()
	deadline := start.Add(tapJoinPatience)
	nextCheck := start.Add(tapDialCheck)
	var conn *net.UnixConn
	// A tap tmux has just started takes some milliseconds to listen (a
	// process start): within tapDialFast of the first try the socket is
	// tried every tapDialStep, so that a new stream waits about as long as
	// the tap takes; then the pause grows to tapDialSlow.
	pause := tapDialStep
	for {
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: info.socket, Net: "unix"})
		if err == nil {
			conn = c
			break
		}
		now := time.Now()
		if now.After(deadline) {
			return nil, nil, head, fmt.Errorf("pane %s: its tap (%s) does not answer: %w", p, info.socket, err)
		}
		if now.After(nextCheck) {
			if !tapMayAnswer(h, p, info, opener) {
				return nil, nil, head, fmt.Errorf("pane %s: its tap (%s) does not answer: %w", p, info.socket, err)
			}
			nextCheck = time.Now().Add(tapDialFast)
		}
		select {
		case <-ctx.Done():
			return nil, nil, head, ctx.Err()
		case <-h.done:
			return nil, nil, head, ErrHubClosed
		case <-time.After(pause):
		}
		if time.Since(start) > tapDialFast {
			pause = min(2*pause, tapDialSlow)
		}
	}
	fail := func(err error) (*net.UnixConn, *bufio.Reader, tapHeaderBody, error) {
		conn.Close()
		return nil, nil, head, fmt.Errorf("pane %s: its tap (%s): %w", p, info.socket, err)
	}
	conn.SetDeadline(time.Now().Add(tapJoinPatience))
	hello := tapHello + " " + hex.EncodeToString(info.gen[:]) + " 0"
	if opener {
		hello += " " + tapOpener
	}
	if _, err := conn.Write([]byte(hello + "\n")); err != nil {
		return fail(err)
	}
	br := bufio.NewReaderSize(conn, 256<<10)
	kind, body, err := readFrame(br, nil)
	if err != nil {
		return fail(err)
	}
	if kind == tapRefusal && strings.HasPrefix(string(body), hostNoStream) {
		return fail(fmt.Errorf("%w: %s", errStreamGone, body))
	}
	if kind != tapHeader {
		return fail(fmt.Errorf("refused: %s", body))
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return fail(err)
	}
	conn.SetDeadline(time.Time{})
	return conn, br, head, nil
}

// joinTap connects to another instance's tap, takes everything its ring
// holds up to now, and follows it.
func (h *Hub) joinTap(ctx context.Context, p tmuxctl.PaneID, info tapInfo, gate tmuxctl.Gate) (*Stream, error) {
	conn, br, head, err := h.dialTap(ctx, p, info, false)
	if err != nil {
		return nil, err
	}
	s := newStream(h, p, h.opts.BufferBytes)
	s.gen, s.mark = info.gen, info.baseMark()
	s.ring.Restart(head.Start)
	tc := &tapConn{info: info, conn: conn, br: br, gate: gate, acked: !gate.Ack}
	s.tap = tc
	// Catch up with what the tap held when asked: output printed after
	// Watch returns is then always in the stream.
	if dl, ok := ctx.Deadline(); ok {
		conn.SetReadDeadline(dl)
	}
	ended := false
	var buf []byte
	for !ended && s.End() < head.End {
		kind, body, err := readFrame(br, buf)
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("pane %s: its tap (%s): %w", p, info.socket, err)
		}
		buf = body[:0]
		ended = s.applyTap(kind, body)
		h.ackExit(tc, kind, body)
	}
	conn.SetReadDeadline(time.Time{})
	if ended {
		conn.Close()
		s.pipeEnded = true
		close(s.drained)
		// The pane's output ended as we joined: find out why, as the
		// feeder would.
		h.pipeClosed(s)
		return s, nil
	}
	if !h.goFunc(func() { h.feedTap(s, tc) }) {
		conn.Close()
		return nil, ErrHubClosed
	}
	return s, nil
}

// deadStream is the stream of a dead pane: nothing to pipe, no more output.
func deadStream(h *Hub, p tmuxctl.PaneID) *Stream {
	s := newStream(h, p, h.opts.BufferBytes)
	s.pipeEnded = true
	close(s.drained)
	s.markDead()
	return s
}

// applyTap applies one frame from the tap to s; it reports the end.
func (s *Stream) applyTap(kind byte, body []byte) (ended bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case tapText:
		if s.failure == "" {
			s.ring.Append(body)
		}
		s.lastData = time.Now()
	case tapSkip:
		if len(body) == 8 {
			if off := int64(binary.BigEndian.Uint64(body)); off > s.ring.End() {
				s.ring.Restart(off)
			}
		}
	case tapMarker:
		var m frame.Marker
		if json.Unmarshal(body, &m) != nil {
			return false
		}
		s.keepMarkerLocked(m)
	case tapEnd:
		return true
	default:
		return false
	}
	s.notifyLocked()
	return false
}

// ackExit acks the gate of tc when a frame from the tap is its program's
// exit marker. The marker is looked for in the frames, not in the stream,
// which stops taking output once it fails: the program's shell waits for
// the ack whatever became of the stream.
func (h *Hub) ackExit(tc *tapConn, kind byte, body []byte) {
	if tc.acked || kind != tapMarker {
		return
	}
	var m frame.Marker
	if json.Unmarshal(body, &m) == nil && m.Nonce == tc.gate.Nonce && m.Kind == frame.Exit {
		tc.acked = true
		h.ack(tc.gate)
	}
}

// feedTap follows the tap of s until its pipe ends or the connection does.
func (h *Hub) feedTap(s *Stream, tc *tapConn) {
	ended := false
	var buf []byte
	for !ended {
		kind, body, err := readFrame(tc.br, buf)
		if err != nil {
			break
		}
		buf = body[:0]
		if kind == tapSynced {
			tc.gotSync()
			continue
		}
		ended = s.applyTap(kind, body)
		h.ackExit(tc, kind, body)
	}
	tc.conn.Close()
	lost := !ended && s.valid() && !tc.closing.Load()
	if lost {
		// The tap went away without an end: it was killed. The failure
		// goes in before the drain is announced (see followOwnTap).
		h.retire(s, ConnectionLost)
	}
	s.mu.Lock()
	s.pipeEnded = true
	s.mu.Unlock()
	close(s.drained)
	switch {
	case lost:
		// Its pipe is no use to anyone now.
		if pid := tapPID(h, s.pane, tc.info); pid == 0 || !processAlive(pid) {
			ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
			defer cancel()
			h.ops.ClosePipe(ctx, s.pane, tc.info.baseMark())
		}
	case ended && s.valid() && !tc.closing.Load():
		h.pipeClosed(s)
	}
}

// tapMayAnswer reports whether the tap of info may still answer. The
// tap an instance opened may: its pane can close, and the tap clear its
// mark, before it listens, and it waits for its opener (tap.drain) unless
// it died.
func tapMayAnswer(h *Hub, p tmuxctl.PaneID, info tapInfo, opener bool) bool {
	if opener {
		pid := tapPID(h, p, info)
		return pid == 0 || processAlive(pid)
	}
	return tapMarked(h, p, info)
}

// tapMarked reports whether pane p's mark still names the tap of info
// with a tap that may be running: one that has not recorded itself yet,
// or whose recorded process lives.
func tapMarked(h *Hub, p tmuxctl.PaneID, info tapInfo) bool {
	ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
	defer cancel()
	pane, err := h.client.Pane(ctx, p)
	if err != nil {
		return false
	}
	t, ok := parseTapMark(pane.PipeMark)
	return ok && t.gen == info.gen && (t.pid == 0 || processAlive(t.pid))
}

// tapPID returns the pid the pane's mark records for the tap, or 0.
func tapPID(h *Hub, p tmuxctl.PaneID, info tapInfo) int {
	if info.pid != 0 {
		return info.pid
	}
	ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
	defer cancel()
	pane, err := h.client.Pane(ctx, p)
	if err != nil {
		return 0
	}
	if t, ok := parseTapMark(pane.PipeMark); ok && t.gen == info.gen {
		return t.pid
	}
	return 0
}

// closeTap leaves the tap of s: the tap, shared, lives on until its own
// idle limit.
func (s *Stream) closeTap() {
	tc := s.tap
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.closing.Store(true)
	if tc.conn != nil {
		tc.conn.Close()
	}
}

// LookupOn finds the stream of a cursor's generation gen for pane p: one
// this instance reads, or — a cursor of another instance, or of this one
// before a restart — the pane's tap of that generation, joined now.
func (h *Hub) LookupOn(ctx context.Context, gen [16]byte, p tmuxctl.PaneID) (*Stream, Failure, bool) {
	s, f, ok := h.Lookup(gen)
	if ok && !s.claim() {
		// Expiring as it was found: a tap's stream is joined again below.
		s, f, ok = nil, Expired, false
	}
	if ok {
		s.syncTap(ctx)
		h.awaitSettled(ctx, s)
	}
	if ok || h.opts.TapBinary == "" {
		return s, f, ok
	}
	if w, err := h.Watch(ctx, p); err == nil && w.gen == gen {
		return w, "", true
	}
	return s, f, ok
}
