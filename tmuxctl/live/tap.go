package live

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/pipes"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A tap is one pane's stream in the stream host (host.go), shared by
// every tmux-mcp instance of this user (see the package doc, "The stream
// host"): its relay's FIFO is its input, and the host hands it the
// readers that ask for its generation.
type tap struct {
	pane   tmuxctl.PaneID
	mark   string // the base mark the instance opened the pipe with
	socket string // where readers dial: the host's socket
	idle   time.Duration
	ops    tmuxctl.LiveOps
	s      *Stream

	fifo     string        // the relay's FIFO, removed once the relay has opened it
	hold     *os.File      // the host's own writer on the FIFO until the relay comes
	ack      *relayACK     // the FIFO the relay waits on for the host's word
	relay    string        // how the pane's output comes: "taken" (the pipe itself) or "cat"
	finished chan struct{} // closed when the tap has ended and left the host

	started time.Time
	stdin   *os.File // the pipe, when it is one, to see what it holds
	// pulled counts the bytes read from the pipe, and taken those of
	// them in the stream (take returned): pulled runs ahead of taken
	// while one read is being taken (see takeUnread).
	pulled, taken atomic.Int64

	mu      sync.Mutex
	readers int
	// opened is set once the instance that opened the pipe has asked
	// for the stream: until then the tap outlives its pipe (see drain).
	opened bool
	// came is set once the relay has written its first line; dropped
	// once the instance that asked for the stream gave it up before.
	came, dropped bool
	// relayed is closed once the relay's first line came, or never will.
	relayed chan struct{}
	shut    bool          // no reader is admitted any more
	why     string        // why it ended, for the host's log
	left    chan struct{} // closed and replaced when a reader comes or goes
	idler   *time.Timer
	done    chan struct{} // closed when the tap starts ending
	once    sync.Once
	wg      sync.WaitGroup // reader servers
	conns   map[net.Conn]struct{}
	served  []*tapReader // readers past their request, for the stdin reader to send to
	// tookSome, made by a takeUnread waiting, is closed when taken grows.
	tookSome chan struct{}
}

// tapStepTimeout bounds each tmux command a tap runs.
const tapStepTimeout = 5 * time.Second

// tapDrainGrace is how long readers get to take the last output once the
// pane's pipe has ended.
const tapDrainGrace = 5 * time.Second

// tapOpenerPatience is how long after its start a tap whose pipe has ended
// waits for the instance that opened the pipe to ask for the stream. That
// instance dials once the pipe is open and gives up after
// tapJoinPatience; a program that prints and exits at once ends the pipe
// before that instance has asked.
const tapOpenerPatience = tapJoinPatience + time.Second

// newTap returns the tap of generation gen, served on socket, of a pane
// not known yet (its relay names it).
func newTap(pane tmuxctl.PaneID, gen [16]byte, socket string, buffer int, idle time.Duration, ops tmuxctl.LiveOps) *tap {
	t := &tap{
		pane: pane, mark: tapMark(gen, socket), socket: socket, idle: idle, ops: ops,
		s: newStream(nil, pane, buffer), finished: make(chan struct{}),
		done: make(chan struct{}), conns: map[net.Conn]struct{}{}, left: make(chan struct{}), started: time.Now(),
		relayed: make(chan struct{}),
	}
	t.s.gen = gen
	// The idle limit runs from the relay's coming (run), not before: a
	// relay slow to start (a loaded machine) must not find its stream
	// ended.
	t.idler = time.AfterFunc(idle, t.idleCheck)
	t.idler.Stop()
	return t
}

// run reads the relay's FIFO r into the stream until the pane's pipe ends
// or the tap ends (idle, dropped, or the host signalled), then serves the
// readers the rest and clears the pane's mark if it is still the tap's.
func (t *tap) run(r *os.File) {
	defer r.Close()
	t.mu.Lock()
	t.stdin = r
	t.mu.Unlock()
	pane, pid, _, err := t.relayHeader(r)
	t.hold.Close()
	os.Remove(t.fifo)
	in, first := r, []byte(nil)
	if err == nil {
		in, first, err = t.takePipe(r, pid, pane)
	}
	t.ack.close()
	os.Remove(relayHeadPath(t.fifo))
	if in != r {
		defer in.Close()
		r.Close() // the relay has exited, or is exiting
	}
	t.mu.Lock()
	t.stdin = in
	if t.dropped && err == nil {
		err = errHostEnding
	}
	t.relayCame(err == nil)
	t.mu.Unlock()
	if err != nil {
		t.why = "no relay: " + err.Error()
		// No relay came: nothing was piped, so nothing is given back.
		t.s.mu.Lock()
		t.s.pipeEnded = true
		t.s.notifyLocked()
		t.s.mu.Unlock()
		t.end()
		t.finish(false)
		return
	}
	t.pane = pane
	t.s.mu.Lock()
	t.s.pane = pane
	t.s.mu.Unlock()
	t.mu.Lock()
	if t.readers == 0 {
		t.idler.Reset(t.idle)
	}
	t.mu.Unlock()
	ended := make(chan struct{})
	go func() {
		t.read(in, first)
		close(ended)
	}()
	select {
	case <-ended:
		// The pane closed or its pipe was closed: let readers take the rest.
		t.why = "the pipe ended"
		t.drain()
	case <-t.done:
		// Idle or signalled: close our pipe (only if it is still ours),
		// which ends the relay; readers get the end as soon as it comes.
		t.why = "idle or signalled"
		t.giveBack()
		select {
		case <-ended:
		case <-time.After(time.Second):
		}
		t.s.mu.Lock()
		t.s.pipeEnded = true
		t.s.notifyLocked()
		t.s.mu.Unlock()
	}
	t.end()
	t.finish(true)
}

// relayCatEnv, when set to 1, makes the host leave every relay a cat, as
// on macOS and FreeBSD: a test runs that path on Linux with it.
const relayCatEnv = "TMUX_MCP_TEST_RELAY_CAT"

// takePipe returns what the tap reads once the relay's shell (pid) has
// said its line: the pane's pipe itself, taken from the shell, which is
// then told nothing and exits; or else the FIFO r, into which the shell,
// told "c", becomes a cat, with what came after the cat's line.
func (t *tap) takePipe(r *os.File, pid int, pane tmuxctl.PaneID) (*os.File, []byte, error) {
	if os.Getenv(relayCatEnv) != "1" {
		if fd, err := takeRelayPipe(pid); err == nil {
			// The shell writes nothing more and holds the FIFO open until
			// it has its word: if it is still there, pid was its pid when
			// the copy was made.
			if !fifoWriterGone(r) {
				if pipe, err := adoptPipe(fd); err == nil {
					t.relay = "taken"
					return pipe, nil, t.ack.say("")
				}
			} else {
				syscall.Close(fd)
			}
		}
	}
	t.relay = "cat"
	if err := t.ack.say("c"); err != nil {
		return r, nil, err
	}
	again, _, first, err := t.relayHeader(r)
	if err == nil && again != pane {
		err = fmt.Errorf("relay of %s said %s", pane, again)
	}
	return r, first, err
}

// fifoWriterGone reports whether the FIFO r, open without waiting, has
// no writer left (its end of file), or holds bytes no one should have
// written; it never waits.
func fifoWriterGone(r *os.File) bool {
	raw, err := r.SyscallConn()
	if err != nil {
		return true
	}
	gone := true
	raw.Read(func(fd uintptr) bool {
		var b [1]byte
		_, err := syscall.Read(int(fd), b[:])
		gone = err != syscall.EAGAIN
		return true
	})
	return gone
}

// relayCame records whether the relay came, once; t.mu is held.
func (t *tap) relayCame(came bool) {
	t.came = came
	close(t.relayed)
}

// finish admits no more readers, serves those it has to the end (a
// bounded time), and clears the pane's mark if it is still the tap's.
func (t *tap) finish(piped bool) {
	t.mu.Lock()
	t.shut = true
	t.idler.Stop()
	t.mu.Unlock()
	t.awaitReaders(time.Now().Add(tapDrainGrace))
	t.closeReaders()
	t.wg.Wait()
	if !piped {
		return
	}
	// The pipe has ended (or was closed): only the mark may be left, and
	// only if it is still this tap's. The pipe itself is never closed
	// here: after its end it may be someone else's.
	ctx, cancel := context.WithTimeout(context.Background(), tapStepTimeout)
	defer cancel()
	t.ops.UnmarkPipe(ctx, t.pane, t.mark)
}

// dropUnopened ends a tap whose relay has not come: the instance that
// asked for it could not open the pane's pipe.
func (t *tap) dropUnopened() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.came || t.dropped {
		return
	}
	t.dropped = true
	if t.stdin != nil {
		t.stdin.SetReadDeadline(time.Now())
	}
}

// giveBack closes the pane's pipe and clears the mark, if both are still
// this tap's.
func (t *tap) giveBack() {
	ctx, cancel := context.WithTimeout(context.Background(), tapStepTimeout)
	defer cancel()
	t.ops.ClosePipe(ctx, t.pane, t.mark)
}

// read copies the pane's output (first, then the rest of stdin) into the
// stream until the pipe ends. Its buffer is taken from a pool only once
// the pipe has something to read (readPooled), so a quiet pane's reader
// holds none.
func (t *tap) read(stdin io.Reader, first []byte) {
	var readers []*tapReader
	took := func(b []byte) {
		t.pulled.Add(int64(len(b)))
		readers = t.take(b, readers)
		t.taken.Add(int64(len(b)))
		t.mu.Lock()
		if t.tookSome != nil {
			close(t.tookSome)
			t.tookSome = nil
		}
		t.mu.Unlock()
	}
	if len(first) > 0 {
		took(first)
	}
	for {
		n, err := readPooled(stdin, took)
		if n == 0 && err == nil {
			err = io.EOF
		}
		if err != nil {
			if err != io.EOF {
				t.s.markLost()
			}
			break
		}
	}
	// The pipe has ended: the mark goes before any reader hears of the
	// end, so that none finds it afterwards. The pipe itself is never
	// closed here: after its end it may be someone else's.
	ctx, cancel := context.WithTimeout(context.Background(), tapStepTimeout)
	t.ops.UnmarkPipe(ctx, t.pane, t.mark)
	cancel()
	t.s.mu.Lock()
	if len(t.s.carry) > 0 {
		t.s.ring.Append([]byte("\uFFFD"))
		t.s.carry = nil
	}
	t.s.pipeEnded = true
	t.s.notifyLocked()
	t.s.mu.Unlock()
}

// take adds output to the stream and sends it at once to every reader
// whose server is idle (tapReader.sendNow). readers is a slice to reuse;
// take returns it.
func (t *tap) take(raw []byte, readers []*tapReader) []*tapReader {
	t.s.appendOutput(raw)
	t.mu.Lock()
	readers = append(readers[:0], t.served...)
	t.mu.Unlock()
	for _, r := range readers {
		r.sendNow(t.s)
	}
	return readers
}

// drain waits, a bounded time, until the instance that opened the pipe
// has asked for the stream and every reader has taken the end. The
// opener gets tapOpenerPatience from the tap's start (it has given up by
// then); each reader then tapDrainGrace.
func (t *tap) drain() {
	opener := t.started.Add(tapOpenerPatience)
	deadline := time.Now()
	if opener.After(deadline) {
		deadline = opener
	}
	deadline = deadline.Add(tapDrainGrace)
	for {
		t.mu.Lock()
		n, opened, left := t.readers, t.opened, t.left
		t.mu.Unlock()
		now := time.Now()
		if n == 0 && (opened || now.After(opener)) || now.After(deadline) {
			return
		}
		wake := deadline
		if !opened && n == 0 {
			wake = opener
		}
		select {
		case <-left:
		case <-time.After(time.Until(wake) + time.Millisecond):
		}
	}
}

// awaitReaders waits until every reader has left, or until deadline.
func (t *tap) awaitReaders(deadline time.Time) {
	for {
		t.mu.Lock()
		n, left := t.readers, t.left
		t.mu.Unlock()
		if n == 0 || time.Now().After(deadline) {
			return
		}
		select {
		case <-left:
		case <-time.After(time.Until(deadline)):
		}
	}
}

// readersChangedLocked wakes drain and awaitReaders.
func (t *tap) readersChangedLocked() {
	close(t.left)
	t.left = make(chan struct{})
}

// end starts the tap's end, once.
func (t *tap) end() { t.once.Do(func() { close(t.done) }) }

// idleCheck ends the tap if it has had no reader for the idle limit. It
// decides under the lock that admits readers, and admits none after: a
// reader that comes as it decides is refused, and its instance starts the
// pane's next stream, instead of joining one that is giving its pipe back
// (which that instance would take for a pipe someone else closed).
func (t *tap) idleCheck() {
	t.mu.Lock()
	idle := t.readers == 0 && !t.shut
	if idle {
		t.shut = true
	}
	t.mu.Unlock()
	if idle {
		t.end()
	}
}

func (t *tap) closeReaders() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for c := range t.conns {
		c.Close()
	}
}

// admit serves reader c, whose request (its words f) the host has read
// from br, unless the tap has finished serving: false then. A reader that
// comes as the tap ends is served too: it gets all the tap holds and the
// end.
func (t *tap) admit(c *net.UnixConn, br *bufio.Reader, f []string) bool {
	t.mu.Lock()
	if t.shut {
		t.mu.Unlock()
		return false
	}
	t.readers++
	t.idler.Stop()
	t.conns[c] = struct{}{}
	t.wg.Add(1)
	t.readersChangedLocked()
	t.mu.Unlock()
	go func() {
		defer t.wg.Done()
		t.serve(c, br, f)
		c.Close()
		t.mu.Lock()
		delete(t.conns, c)
		t.readers--
		if t.readers == 0 {
			select {
			case <-t.done:
			default:
				t.idler.Reset(t.idle)
			}
		}
		t.readersChangedLocked()
		t.mu.Unlock()
	}()
	return true
}

// tapSyncDefer bounds how long a sync waits for the stdin reader to take
// output already in the pipe.
const tapSyncDefer = 50 * time.Millisecond

// relayDone reports whether the relay's first line came, or never will.
func (t *tap) relayDone() bool {
	select {
	case <-t.relayed:
		return true
	default:
		return false
	}
}

// unread returns how many bytes of the pane's output wait in the pipe.
func (t *tap) unread() int {
	t.mu.Lock()
	in := t.stdin // the FIFO, then what takePipe gave
	t.mu.Unlock()
	if in == nil {
		return 0
	}
	return pipes.Unread(in)
}

// takeUnread waits until the stream holds what the stdin reader had
// pulled from the pipe, and what waited in the pipe, when it was called:
// for tapSyncDefer at most, so that a pane that never stops printing
// cannot hold a reader back. (pulled is read first: the sum then never
// counts a byte twice, so it is never more than will be taken.)
func (t *tap) takeUnread(gone <-chan struct{}) {
	want := t.pulled.Load()
	want += int64(t.unread())
	timeout := time.After(tapSyncDefer)
	for {
		t.mu.Lock()
		if t.tookSome == nil {
			t.tookSome = make(chan struct{})
		}
		took := t.tookSome
		t.mu.Unlock()
		if t.taken.Load() >= want {
			return
		}
		select {
		case <-took:
		case <-gone:
			return
		case <-timeout:
			return
		}
	}
}

// tapChunk is the most text one T frame carries.
const tapChunk = 256 << 10

// serve answers one reader, whose request (its words f) the host has
// read from br: the stream from there.
func (t *tap) serve(c *net.UnixConn, br *bufio.Reader, f []string) {
	var off int64 = -1
	if (len(f) == 3 || len(f) == 4 && f[3] == tapOpener) && f[0] == tapHello && f[1] == hex.EncodeToString(t.s.gen[:]) {
		off, _ = strconv.ParseInt(f[2], 10, 64)
	}
	if off < 0 {
		writeFrame(c, tapRefusal, []byte("want \"ltxtap1 <generation> <offset>\" for generation "+hex.EncodeToString(t.s.gen[:])))
		return
	}
	if len(f) == 4 {
		t.mu.Lock()
		t.opened = true
		t.readersChangedLocked()
		t.mu.Unlock()
	}
	gone := make(chan struct{})
	syncs := make(chan struct{}, 64)
	go func() {
		defer close(gone)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			if line == tapSyncReq {
				select {
				case syncs <- struct{}{}:
				default: // the reader asks faster than it reads: it gets later answers
				}
			}
		}
	}()
	pendingSyncs := 0
	deferred := false // the pending syncs have waited for the stdin reader once
	// The writer's buffer is the server's only while it works: an idle
	// reader (most of them, most of the time) holds none.
	w := getWriter(c)
	defer func() { putWriter(w) }()

	s := t.s
	if len(f) == 3 {
		// A reader joining (not the opener, whose stream starts at the
		// pipe's first byte whenever it is read) counts from the header's
		// end: what tmux handed the tap before it asked goes in first.
		t.takeUnread(gone)
	}
	r := &tapReader{}
	r.raw, _ = c.SyscallConn() // nil: only this server writes to the reader
	r.mu.Lock()                // this server's but while it is idle; never given back once it returns
	s.mu.Lock()
	start, end := s.ring.Start(), s.ring.End()
	r.off = min(max(off, start), end)
	r.sentSeq = s.markerSeq - int64(len(s.markers))
	s.mu.Unlock()
	head, _ := json.Marshal(tapHeaderBody{Start: r.off, End: end})
	if writeFrame(w, tapHeader, head) != nil {
		return
	}
	t.mu.Lock()
	t.served = append(t.served, r)
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		t.served = slices.DeleteFunc(t.served, func(o *tapReader) bool { return o == r })
		t.mu.Unlock()
	}()
	for {
		changed, ended, atEnd, err := r.step(s, w)
		if err != nil {
			return
		}
		if !atEnd {
			continue
		}
		if pendingSyncs > 0 && !ended && !t.relayDone() {
			// The relay has not written its first line: it is cat that
			// writes it, so until then what the pane printed can wait in
			// its pipe, unread. A sync answers once the relay reads.
			if w.Flush() != nil {
				return
			}
			select {
			case <-t.relayed:
			case <-gone:
				return
			case <-t.done:
			}
			continue
		}
		if pendingSyncs > 0 && !ended && !deferred && t.unread() > 0 {
			// tmux has handed us output the stdin reader has not taken
			// yet: a sync answers after it (one ring change, or
			// tapSyncDefer, so a pane that never stops printing cannot
			// hold a sync back).
			deferred = true
			if w.Flush() != nil {
				return
			}
			select {
			case <-changed:
			case <-gone:
				return
			case <-time.After(tapSyncDefer):
			}
			continue
		}
		deferred = false
		for ; pendingSyncs > 0; pendingSyncs-- {
			if writeFrame(w, tapSynced, nil) != nil {
				return
			}
		}
		if ended {
			writeFrame(w, tapEnd, nil)
			w.Flush()
			select { // the reader closes once it has the end
			case <-gone:
			case <-time.After(tapDrainGrace):
			}
			return
		}
		if w.Flush() != nil {
			return
		}
		// Idle: at the ring's end with nothing else to send, the reader
		// is the stdin reader's to send new text to (tapReader.sendNow)
		// until this server wakes.
		putWriter(w)
		w = nil
		r.mu.Unlock()
		var synced, left, ending bool
		select {
		case <-changed:
		case <-syncs:
			synced = true
		case <-gone:
			left = true
		case <-t.done:
			ending = true
		}
		r.mu.Lock()
		if left {
			return
		}
		w = getWriter(c)
		// What the stdin reader could not write without waiting goes
		// first. It only has some after text this server had not seen,
		// whose append closed changed: this server is awake for it.
		if _, err := r.rest.WriteTo(w); err != nil {
			return
		}
		if synced {
			pendingSyncs++
		}
		if ending {
			// Ending: the pipe's end (or our close) comes through changed.
			select {
			case <-changed:
			case <-gone:
				return
			case <-time.After(2 * time.Second):
				writeFrame(w, tapEnd, nil)
				w.Flush()
				return
			}
		}
	}
}

// A tapReader is one reader's place in the stream, sent to by its server
// or, while that server is idle, by the stdin reader (see sendNow).
type tapReader struct {
	// mu is held by whichever goroutine sends to the reader, and so owns
	// all below: its server, from its start to its end but while it is
	// idle (it waits at the ring's end with nothing else to send, all it
	// wrote flushed), or the stdin reader, which only ever tries it and
	// so never waits for a reader.
	mu      sync.Mutex
	off     int64      // where its next text starts
	sentSeq int64      // the markers up to this one are sent or pending
	pending []markerAt // markers whose text has not been sent yet
	// rest holds frames the stdin reader could not write without
	// waiting: its server writes them before anything else.
	rest bytes.Buffer
	raw  syscall.RawConn // the reader's socket, for writes that never wait
}

// step writes to w the frames of what the ring holds from r.off (at most
// tapChunk of text): a skip for what it no longer holds, the text, and
// the markers the text reaches. It returns the channel of the ring's next
// change, taken with what it read, whether the pipe has ended, and
// whether the reader has reached the ring's end.
func (r *tapReader) step(s *Stream, w io.Writer) (changed <-chan struct{}, ended, atEnd bool, err error) {
	s.mu.Lock()
	changed = s.changed
	data, missed, err := s.ring.ReadFrom(r.off, tapChunk)
	ended = s.pipeEnded
	if fresh := s.markerSeq - r.sentSeq; fresh > 0 {
		first := max(len(s.markers)-int(fresh), 0)
		for _, m := range s.markers[first:] {
			r.pending = append(r.pending, markerAt{m.Offset, markerPayload(m)})
		}
		r.sentSeq = s.markerSeq
	}
	atEnd = r.off+missed+int64(len(data)) == s.ring.End()
	s.mu.Unlock()
	if err != nil {
		return changed, ended, atEnd, err
	}
	if missed > 0 {
		r.off += missed
		if err := writeFrame(w, tapSkip, offsetPayload(r.off)); err != nil {
			return changed, ended, atEnd, err
		}
	}
	if len(data) > 0 {
		if err := writeFrame(w, tapText, data); err != nil {
			return changed, ended, atEnd, err
		}
		r.off += int64(len(data))
	}
	kept := r.pending[:0]
	for _, m := range r.pending {
		if m.off > r.off {
			kept = append(kept, m)
			continue
		}
		if err := writeFrame(w, tapMarker, m.body); err != nil {
			return changed, ended, atEnd, err
		}
	}
	r.pending = kept
	return changed, ended, atEnd, nil
}

// sendNow sends the reader what the stdin reader has just appended, from
// the stdin reader, if its server is idle: no goroutine switch between
// the pane's output and the reader's socket. It never waits: what the
// socket does not take at once is left in r.rest for the server, which
// that append has woken. A reader whose server is at work (behind,
// answering syncs, ending, or writing to a reader that does not read) is
// left to it.
func (r *tapReader) sendNow(s *Stream) {
	if !r.mu.TryLock() {
		return // its server is at work, or gone
	}
	defer r.mu.Unlock()
	if r.rest.Len() > 0 || r.raw == nil {
		return
	}
	if _, _, _, err := r.step(s, &r.rest); err != nil || r.rest.Len() == 0 {
		return
	}
	r.rest.Next(writeNow(r.raw, r.rest.Bytes()))
}

// readWithPool reads once from r into a buffer from readBufs, held
// through the read, and passes what it read to took.
func readWithPool(r io.Reader, took func([]byte)) (int, error) {
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	n, err := r.Read(*bp)
	if n > 0 {
		took((*bp)[:n])
	}
	if n == 0 && err == nil {
		err = io.ErrNoProgress
	}
	return n, err
}

// readBufs and writers hold the buffers of the taps' FIFO readers and of
// their readers' servers while they work.
var (
	readBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}
	writers  = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}
)

func getWriter(c io.Writer) *bufio.Writer {
	w := writers.Get().(*bufio.Writer)
	w.Reset(c)
	return w
}

func putWriter(w *bufio.Writer) {
	if w != nil {
		w.Reset(nil)
		writers.Put(w)
	}
}

// A markerAt is a marker waiting for its text to be sent first.
type markerAt struct {
	off  int64
	body []byte
}
