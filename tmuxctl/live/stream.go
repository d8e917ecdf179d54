package live

import (
	"bytes"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// A Failure says why a [Stream] ended for good, in words for messages. The
// zero value means the stream is still valid. The wire's streamFailure
// enum is not this layer's business: handlers map each Failure to it.
type Failure string

const (
	ConnectionLost  Failure = "connection lost" // the pane's pipe ended: the tmux server went, or someone else closed or replaced the pipe
	HubClosed       Failure = "server stopping" // this server is shutting down
	Expired         Failure = "expired unread"  // unread for longer than the idle limit
	TopologyChanged Failure = "pane moved"      // the pane moved and could not be followed
)

// lostMark stands in the ring for output that was not delivered (the pipe
// failed mid-read). The escape filter
// drops every NUL a program prints, so a NUL in the ring is always a mark.
const lostMark = 0

// A Stream is the output of one pane since it was first watched: its text
// with terminal escapes stripped, invalid UTF-8 replaced and "\r\n" folded
// to "\n", in a bounded ring addressed by absolute byte offsets. Its
// generation, a random 128-bit id, tells its cursors apart from those of
// any earlier stream of the same pane or process.
//
// A Stream is safe for concurrent use. Readers wait for change on
// [Stream.Changed].
type Stream struct {
	pane tmuxctl.PaneID
	gen  [16]byte
	hub  *Hub
	mark string // the pane's PipeOption while the pipe is this stream's

	mu      sync.Mutex
	ring    *ring
	filter  escapeFilter
	carry   []byte // an incomplete UTF-8 sequence held for the next chunk
	scanner frame.Scanner
	markers []frame.Marker // the most recent frame markers, oldest first
	// markerSeq counts the markers ever seen, so a tap knows which of
	// s.markers a reader has not been sent yet.
	markerSeq int64
	shell     shellTracker  // what the shell's marks (OSC 133) said
	changed   chan struct{} // closed and replaced on every change
	dead      bool          // the pane's program ended or the pane closed
	failure   Failure
	// drained closes when the pipe has reached EOF: every byte the pane
	// printed into it is in the stream.
	drained   chan struct{}
	pipeEnded bool // the FIFO reached EOF (or never opened)
	unmarked  bool // closePipe took the pipe's mark away
	relayPID  int  // the pipe's cat relay, once it has said
	// relayed is closed once a FIFO's relay has said its pid (it then
	// reads the pane's pipe), or the FIFO ended without it.
	relayed  chan struct{}
	file     *os.File  // the FIFO, while it is read
	lastData time.Time // when output last arrived
	dying    bool      // a death was seen; the stream is dead once drained
	expiry   *time.Timer
	expiring bool      // its idle limit passed with no reader: it is being ended (Expired)
	touched  time.Time // when its idle clock last restarted
	readers  int       // waits in progress: a stream being read never expires
	// tap is set on a stream fed from a tap's socket (tapfeed.go) rather
	// than from a FIFO of this instance's own.
	tap *tapConn
}

func newStream(h *Hub, pane tmuxctl.PaneID, capacity int) *Stream {
	s := &Stream{pane: pane, hub: h, ring: newRing(capacity), changed: make(chan struct{}), drained: make(chan struct{}),
		relayed: make(chan struct{})}
	tmuxctl.NonceBytes(s.gen[:])
	return s
}

// Pane returns the pane whose output this is.
func (s *Stream) Pane() tmuxctl.PaneID { return s.pane }

// Cursor returns the cursor for offset off of this stream.
func (s *Stream) Cursor(off int64) string { return formatCursor(s.gen, off) }

// End returns the offset just after the last byte received.
func (s *Stream) End() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ring.End()
}

// Changed returns a channel closed at the next change: output, death or
// failure. Take it before reading, so no change between the read and the
// wait is missed.
func (s *Stream) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// A Chunk is what [Stream.Read] returns: contiguous text, and what could
// not be returned around it.
type Chunk struct {
	Text      []byte // retained text, contiguous, starting at TextStart
	Start     int64  // offset the read asked for
	TextStart int64  // offset of Text[0]; past Start when the ring overran Start
	End       int64  // offset to continue from
	// Missed counts the bytes between Start and End that are not in Text:
	// output overwritten before it was read, plus one for a MarkAfter.
	Missed int64
	// MarkAfter means output was lost right after Text (tmux paused the
	// pane, or it moved between sessions); End is just past that gap.
	MarkAfter bool
	Lost      bool    // Missed > 0: a reader may have missed a match
	Dead      bool    // the pane has died; no more output will come
	Failed    Failure // non-empty once the stream has ended for good
}

// Read returns the text from off up to the end of the stream, or up to the
// next gap in it, so that Text is always contiguous. It fails if off lies
// beyond the end.
func (s *Stream) Read(off int64) (Chunk, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touchLocked()
	data, missed, err := s.ring.ReadFrom(off, -1)
	if err != nil {
		return Chunk{}, err
	}
	if missed > 0 {
		// The ring overran off and may now start inside a character:
		// skip to the next one, counting the skipped bytes as missed.
		skip := 0
		for skip < len(data) && skip < utf8.UTFMax && !utf8.RuneStart(data[skip]) {
			skip++
		}
		data, missed = data[skip:], missed+int64(skip)
	}
	c := Chunk{Start: off, TextStart: off + missed, Missed: missed, Dead: s.dead, Failed: s.failure}
	if i := bytes.IndexByte(data, lostMark); i >= 0 {
		data = data[:i]
		c.MarkAfter = true
		c.Missed++
		c.Dead = false // more text follows the gap
	}
	c.Text = data // ReadFrom returned a copy
	c.End = c.TextStart + int64(len(data))
	if c.MarkAfter {
		c.End++
	}
	c.Lost = c.Missed > 0
	return c, nil
}

// Drained returns a channel closed once the stream has every byte the pane
// printed into its pipe (the pipe reached EOF).
func (s *Stream) Drained() <-chan struct{} { return s.drained }

// valid reports whether the stream has not failed.
func (s *Stream) valid() bool {
	_, f := s.State()
	return f == ""
}

// isDead reports whether the pane is known dead.
func (s *Stream) isDead() bool {
	dead, _ := s.State()
	return dead
}

// touch restarts the idle clock.
func (s *Stream) touch() {
	s.mu.Lock()
	s.touchLocked()
	s.mu.Unlock()
}

// State reports whether the pane died and whether the stream failed.
func (s *Stream) State() (dead bool, failure Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead, s.failure
}

// Hold marks a reader as waiting on the stream, so it does not expire
// under it; call the returned func when done.
func (s *Stream) Hold() (release func()) {
	s.mu.Lock()
	s.readers++
	s.touchLocked()
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.readers--
		s.touchLocked()
		s.mu.Unlock()
	}
}

// QuietFor is how long the pane has printed nothing the stream has read
// (since the stream began, if it has read nothing).
func (s *Stream) QuietFor() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.lastData)
}

// appendOutput adds raw pane output as it came from tmux.
func (s *Stream) appendOutput(raw []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != "" {
		return
	}
	prev := 0
	for _, m := range s.scanner.Scan(raw) {
		s.appendText(raw[prev:m.End])
		prev = m.End
		m.Offset = s.ring.End()
		s.keepMarkerLocked(m.Marker)
	}
	s.appendText(raw[prev:])
	s.lastData = time.Now()
	s.notifyLocked()
}

// appendText filters raw output into the ring.
func (s *Stream) appendText(raw []byte) {
	if text := s.sanitize(s.filter.Write(nil, raw)); len(text) > 0 {
		s.ring.Append(text)
	}
}

// sanitize replaces invalid UTF-8 with U+FFFD, holding back an incomplete
// sequence at the end until the next chunk completes it.
func (s *Stream) sanitize(p []byte) []byte {
	if len(s.carry) > 0 {
		p = append(s.carry, p...)
		s.carry = nil
	}
	out := make([]byte, 0, len(p))
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(p) {
				s.carry = append([]byte(nil), p...)
				break
			}
			out = append(out, "\uFFFD"...)
			p = p[1:]
			continue
		}
		out = append(out, p[:size]...)
		p = p[size:]
	}
	return out
}

// markLost records that output was lost here.
func (s *Stream) markLost() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != "" {
		return
	}
	s.carry = nil
	s.ring.Append([]byte{lostMark})
	s.notifyLocked()
}

func (s *Stream) markDead() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead {
		return
	}
	if len(s.carry) > 0 {
		s.ring.Append([]byte("\uFFFD"))
		s.carry = nil
	}
	s.dead = true
	s.notifyLocked()
}

func (s *Stream) fail(f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure != "" {
		return
	}
	s.failure = f
	if s.expiry != nil {
		s.expiry.Stop()
	}
	s.notifyLocked()
}

func (s *Stream) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// touchLocked restarts the idle clock: a stream nobody reads for the
// hub's idle limit expires, unless a wait is holding it.
func (s *Stream) touchLocked() {
	if s.hub == nil || s.failure != "" {
		return
	}
	s.touched = time.Now()
	if s.expiry == nil {
		s.expiry = time.AfterFunc(s.hub.opts.Idle, func() { s.hub.expire(s) })
		return
	}
	s.expiry.Reset(s.hub.opts.Idle)
}

// idleExpired reports whether the stream may expire now.
func (s *Stream) idleExpired() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readers > 0 {
		s.expiry.Reset(s.hub.opts.Idle)
		return false
	}
	if time.Since(s.touched) < s.hub.opts.Idle {
		// Claimed after its timer fired, before this ran: the claim
		// restarted the timer, which fires again.
		return false
	}
	s.expiring = true
	return true
}

// claim restarts the idle clock of a stream a watch or lookup returns,
// unless the stream is already expiring: false then, and the caller needs
// a new stream. (Without it a stream could expire between a watch
// returning it and its reader's Hold.) A failed stream is claimed as it
// is: what it holds can still be read.
func (s *Stream) claim() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.expiring {
		return false
	}
	s.touchLocked()
	return true
}
