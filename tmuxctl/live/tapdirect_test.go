package live

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// newTestTap returns a tap without a pane whose ring keeps capacity
// bytes, served by a stream host of its own on a socket of its own: the
// test is its stdin reader (tap.take, then endTestPipe).
func newTestTap(t *testing.T, capacity int) *tap {
	t.Helper()
	dir, err := os.MkdirTemp("", "tapd") // short: a socket's path is
	if err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "host2.sock")
	hs := newStreamHost(socket, tmuxctl.LiveOps{}, time.Hour)
	tp := newTap("%1", [16]byte{1}, socket, capacity, time.Hour, tmuxctl.LiveOps{})
	hs.taps[tp.s.gen] = tp
	tp.mu.Lock()
	tp.relayCame(true) // the test is the relay
	tp.mu.Unlock()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tp.socket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		hs.accept(ln)
	}()
	t.Cleanup(func() {
		ln.Close()
		<-accepting
		tp.end()
		tp.closeReaders()
		tp.wg.Wait()
		hs.conns.Wait()
		tp.idler.Stop()
		os.RemoveAll(dir)
	})
	return tp
}

// endTestPipe ends the test tap's pipe, as its stdin reader does.
func endTestPipe(tp *tap) {
	tp.s.mu.Lock()
	tp.s.pipeEnded = true
	tp.s.notifyLocked()
	tp.s.mu.Unlock()
}

// dialTestTap connects a reader to tp from offset 0 and reads the header,
// which the tap writes once the reader is among those it sends to.
func dialTestTap(t *testing.T, tp *tap, in func(io.Reader) io.Reader) (*net.UnixConn, *bufio.Reader) {
	t.Helper()
	c, br, head := joinTestTap(t, tp, in)
	if head.Start != 0 {
		t.Fatalf("header %+v: want start 0", head)
	}
	return c, br
}

// joinTestTap connects a reader to tp from offset 0 and returns its header.
func joinTestTap(t *testing.T, tp *tap, in func(io.Reader) io.Reader) (*net.UnixConn, *bufio.Reader, tapHeaderBody) {
	t.Helper()
	c := askTestTap(t, tp)
	br := bufio.NewReaderSize(in(c), 4096)
	kind, body, err := readFrame(br, nil)
	if err != nil || kind != tapHeader {
		t.Fatalf("header: %c %q %v", kind, body, err)
	}
	var head tapHeaderBody
	if err := json.Unmarshal(body, &head); err != nil {
		t.Fatalf("header %q: %v", body, err)
	}
	return c, br, head
}

// askTestTap connects to tp's host and asks for tp's stream from offset
// 0; the connection is closed at cleanup.
func askTestTap(t *testing.T, tp *tap) *net.UnixConn {
	t.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: tp.socket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Write([]byte(tapHello + " " + hex.EncodeToString(tp.s.gen[:]) + " 0\n")); err != nil {
		t.Fatal(err)
	}
	return c
}

// awaitServed waits until tp sends to n readers.
func awaitServed(t *testing.T, tp *tap, n int) {
	t.Helper()
	for deadline := time.Now().Add(eventBound); ; time.Sleep(time.Millisecond) {
		tp.mu.Lock()
		got := len(tp.served)
		tp.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tap sends to %d readers, want %d", got, n)
		}
	}
}

// withProcs runs the rest of the test with GOMAXPROCS n. With one P, as
// a tap has (main's tuneProcs on 2 cores), a server woken by an append
// runs only once the stdin reader waits: the stdin reader is the one that
// finds its reader idle, and meets a full socket.
func withProcs(t *testing.T, n int) {
	prev := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

// A jerkyReader reads at most max bytes at a time, and sometimes pauses
// up to pause first: a reader of its own speed.
type jerkyReader struct {
	r     io.Reader
	rnd   *rand.Rand
	max   int
	pause time.Duration
}

func (j *jerkyReader) Read(p []byte) (int, error) {
	if j.pause > 0 && j.rnd.IntN(4) == 0 {
		time.Sleep(time.Duration(j.rnd.Int64N(int64(j.pause))))
	}
	if len(p) > j.max {
		p = p[:1+j.rnd.IntN(j.max)]
	}
	return j.r.Read(p)
}

// tapTestOutput returns about size bytes of pane output, cut into chunks
// as a pipe hands them over (mostly small, some up to 64 KiB), with
// markers frame markers at random places (a chunk may cut one), and the
// text and markers a stream makes of it.
func tapTestOutput(rnd *rand.Rand, size, markers int) (chunks [][]byte, text []byte, marks []frame.Marker) {
	var raw []byte
	for n := 0; len(raw) < size; n++ {
		line := []byte(strconv.Itoa(n) + ":")
		for range rnd.IntN(200) {
			line = append(line, byte(' '+rnd.IntN(95)))
		}
		raw = append(raw, line...)
		raw = append(raw, '\n')
		if markers > 0 && rnd.IntN(size/200/markers+1) == 0 {
			raw = append(raw, frame.Prefix+"n"+strconv.Itoa(markers)+";start\a"...)
			markers--
		}
	}
	oracle := newStream(nil, "%1", len(raw)+1)
	for len(raw) > 0 {
		n := 1 + rnd.IntN(1000)
		if rnd.IntN(3) == 0 {
			n = 1 + rnd.IntN(64<<10)
		}
		n = min(n, len(raw))
		chunks = append(chunks, raw[:n])
		oracle.appendOutput(raw[:n])
		raw = raw[n:]
	}
	text, _, _ = oracle.ring.ReadFrom(0, -1)
	if oracle.markerSeq > 64 {
		panic("more markers than a stream keeps")
	}
	return chunks, text, oracle.markers
}

// tapSyncs are a reader's syncs: the tap's end when each was asked, and
// a signal for each answer.
type tapSyncs struct {
	mu       sync.Mutex
	asked    []int64
	answered chan struct{}
	frames   atomic.Int64 // frames the reader has read
}

// awaitAnswer waits for the answer to the sync just asked, or for the
// reader to end (ended). The answer comes once the reader has read everything the
// tap held when it asked, which takes a slow reader far behind as long as
// it reads: only eventBound with no frame read means it will not come.
func (s *tapSyncs) awaitAnswer(done <-chan struct{}) (answered, ended bool) {
	for {
		before := s.frames.Load()
		select {
		case <-s.answered:
			return true, false
		case <-done:
			return false, true
		case <-time.After(eventBound):
			if s.frames.Load() == before {
				return false, false
			}
		}
	}
}

// checkTapFrames reads one reader's frames to the end and checks them
// against the text and markers the tap's stream holds: every byte in
// order, skipped only by a skip frame (if skips), every marker once, in
// order, after the text before it and before any other frame past it,
// and each sync answered after everything the tap held when it was
// asked. It reports what is wrong, or nil at the end.
func checkTapFrames(br *bufio.Reader, text []byte, marks []frame.Marker, skips bool, syncs *tapSyncs) error {
	var pos, skipped int64
	got := 0 // markers received
	// owed is where the text had reached when the last text frame came:
	// the markers before it come before any other frame but a marker. A
	// skip leaves it: the markers it skips come after the text after it.
	var owed int64
	var buf []byte // reused
	for {
		kind, body, err := readFrame(br, buf)
		if err != nil {
			return fmt.Errorf("at %d: %v", pos, err)
		}
		if syncs != nil {
			syncs.frames.Add(1)
		}
		buf = body[:0]
		if kind != tapMarker && got < len(marks) && marks[got].Offset < owed {
			return fmt.Errorf("a %c frame at %d before the marker at %d", kind, pos, marks[got].Offset)
		}
		switch kind {
		case tapText:
			if pos+int64(len(body)) > int64(len(text)) || !bytes.Equal(body, text[pos:pos+int64(len(body))]) {
				return fmt.Errorf("text at %d (%d bytes) is not the stream's", pos, len(body))
			}
			pos += int64(len(body))
			owed = pos
		case tapSkip:
			off := int64(binary.BigEndian.Uint64(body))
			if !skips || off <= pos || off > int64(len(text)) {
				return fmt.Errorf("skip from %d to %d", pos, off)
			}
			// The markers before off come after the text that follows.
			skipped += off - pos
			pos = off
		case tapMarker:
			var m frame.Marker
			if err := json.Unmarshal(body, &m); err != nil {
				return err
			}
			if got == len(marks) || m != marks[got] || m.Offset > pos {
				return fmt.Errorf("marker %+v at %d, after %d of %d markers", m, pos, got, len(marks))
			}
			got++
		case tapSynced:
			syncs.mu.Lock()
			if len(syncs.asked) == 0 {
				syncs.mu.Unlock()
				return fmt.Errorf("an answer at %d to no sync", pos)
			}
			asked := syncs.asked[0]
			syncs.asked = syncs.asked[1:]
			syncs.mu.Unlock()
			if pos < asked {
				return fmt.Errorf("a sync asked at %d answered at %d", asked, pos)
			}
			owed = pos
			syncs.answered <- struct{}{}
		case tapEnd:
			if pos != int64(len(text)) || got != len(marks) {
				return fmt.Errorf("the end at %d of %d, after %d of %d markers", pos, len(text), got, len(marks))
			}
			return nil
		default:
			return fmt.Errorf("a %c frame", kind)
		}
	}
}

// Many readers of their own speeds, caught up or behind, asking syncs,
// each get exactly the stream: what the stdin reader writes itself to the
// readers that are caught up, and hands back to their servers when a
// socket is full, keeps every byte in order, every marker once in its
// place and every sync after the text. With a small ring, the slow ones
// are skipped by exactly what they missed.
func TestTapReadersGetExactStreams(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	for _, c := range []struct{ procs, ring int }{{1, 4 << 20}, {1, 64 << 10}, {2, 4 << 20}, {2, 64 << 10}} {
		t.Run(fmt.Sprintf("procs=%d/ring=%d", c.procs, c.ring), func(t *testing.T) {
			ring := c.ring
			withProcs(t, c.procs)
			rnd := rand.New(rand.NewPCG(seed, uint64(ring)))
			chunks, text, marks := tapTestOutput(rnd, 2<<20, 50)
			skips := ring < len(text)
			tp := newTestTap(t, ring)
			speeds := []struct {
				max   int
				pause time.Duration
			}{{64 << 10, 0}, {64 << 10, 0}, {4 << 10, time.Millisecond}, {4 << 10, time.Millisecond}, {1 << 10, 5 * time.Millisecond}, {1 << 10, 5 * time.Millisecond}}
			var readers, askers sync.WaitGroup
			for i, sp := range speeds {
				r := rand.New(rand.NewPCG(seed, uint64(i)))
				c, br := dialTestTap(t, tp, func(c io.Reader) io.Reader { return &jerkyReader{c, r, sp.max, sp.pause} })
				syncs := &tapSyncs{answered: make(chan struct{}, 1)}
				done := make(chan struct{})
				readers.Add(1)
				go func() {
					defer readers.Done()
					defer close(done)
					if err := checkTapFrames(br, text, marks, skips, syncs); err != nil {
						t.Errorf("reader %d: %v", i, err)
					}
				}()
				askers.Add(1)
				go func() {
					defer askers.Done()
					r := rand.New(rand.NewPCG(seed, uint64(100+i)))
					for range 8 {
						time.Sleep(time.Duration(r.Int64N(int64(5 * time.Millisecond))))
						syncs.mu.Lock()
						syncs.asked = append(syncs.asked, tp.s.End())
						syncs.mu.Unlock()
						if _, err := c.Write([]byte(tapSyncReq)); err != nil {
							t.Errorf("reader %d: %v", i, err)
							return
						}
						answered, ended := syncs.awaitAnswer(done)
						if ended {
							return
						}
						if !answered {
							t.Errorf("reader %d: a sync was never answered", i)
							return
						}
					}
				}()
			}
			awaitServed(t, tp, len(speeds))
			var list []*tapReader
			for _, c := range chunks {
				list = tp.take(c, list)
				if rnd.IntN(2) == 0 {
					time.Sleep(time.Duration(rnd.Int64N(int64(time.Millisecond))))
				}
			}
			askers.Wait() // a sync asked after the end may go unanswered
			endTestPipe(tp)
			readers.Wait()
		})
	}
}

// A reader that never reads holds up neither the tap's reading of its
// pane nor another reader (nor does one that leaves): the stdin reader never waits for a full
// socket, and the stuck reader's server, which waits instead, is the
// only one that does.
func TestTapStuckReaderHoldsUpNoOne(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	withProcs(t, 1)
	rnd := rand.New(rand.NewPCG(seed, 0))
	chunks, text, _ := tapTestOutput(rnd, 8<<20, 0)
	tp := newTestTap(t, 1<<20)
	askTestTap(t, tp) // a reader that asks and never reads; closed at cleanup
	_, br := dialTestTap(t, tp, func(c io.Reader) io.Reader { return c })
	// And one that leaves midway: writes to its socket fail (EPIPE), and
	// that is all.
	leaver, lbr := dialTestTap(t, tp, func(c io.Reader) io.Reader { return c })
	go func() {
		defer leaver.Close()
		for range 20 {
			if _, _, err := readFrame(lbr, nil); err != nil {
				return
			}
		}
	}()
	awaitServed(t, tp, 3)
	done := make(chan error, 1)
	go func() { done <- checkTapFrames(br, text, nil, true, nil) }()
	fed := make(chan struct{})
	var taken atomic.Int64
	go func() {
		defer close(fed)
		var list []*tapReader
		for _, c := range chunks {
			list = tp.take(c, list)
			taken.Add(1)
			// Between chunks the servers run (one P) and go idle again: the
			// stuck reader's socket fills with what the stdin reader writes.
			time.Sleep(50 * time.Microsecond)
		}
	}()
	// Held up is taking nothing for eventBound; slow (thousands of chunks
	// under the race detector on a loaded machine) is not held up.
	for before := int64(0); ; {
		select {
		case <-fed:
		case <-time.After(eventBound):
			if now := taken.Load(); now != before {
				before = now
				continue
			}
			t.Fatalf("the tap's reading waits for a reader that does not read: %d of %d chunks taken", taken.Load(), len(chunks))
		}
		break
	}
	endTestPipe(tp)
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(eventBound):
		t.Fatal("the reader that reads never got the end")
	}
}

// A reader that joins while tmux's latest output still waits in the pipe
// (the tap's stdin reader slow to take it, as a tap just started on a busy
// machine is) gets a header that counts it: its stream, and a cursor
// taken at its end, then hold what the pane printed before it asked.
// (Before, the header said 0 and a cursor taken at once pointed before
// output printed long ago.)
func TestTapJoinCountsWhatWaitsInThePipe(t *testing.T) {
	tp := newTestTap(t, 1<<20)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// At the pipe's end the stdin reader unmarks the pane's pipe: here,
	// on a server that does not run, which fails and changes nothing.
	tp.ops = tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: filepath.Join(t.TempDir(), "none")}).LiveOps(livekey.Key{})
	tp.stdin = r
	if _, err := w.Write([]byte("printed before anyone asked\n")); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		time.Sleep(20 * time.Millisecond) // the stdin reader starts late
		tp.read(r, nil)
	}()
	t.Cleanup(func() {
		w.Close()
		<-read
		r.Close()
	})
	_, _, head := joinTestTap(t, tp, func(r io.Reader) io.Reader { return r })
	if head.End != 28 {
		t.Errorf("header %+v: end %d, want 28 (the line waiting in the pipe)", head, head.End)
	}
}

// TestTapIdleEndAdmitsNoReader: once a tap has found itself idle, a reader
// that comes before it has finished ending is refused, as by a host with
// no such stream, rather than served a stream that is giving its pipe
// back (the instance would call that pipe closed by someone else).
func TestTapIdleEndAdmitsNoReader(t *testing.T) {
	tp := newTestTap(t, 1<<10)
	tp.idleCheck() // no reader: it ends; run, which would finish it, is not running
	select {
	case <-tp.done:
	default:
		t.Fatal("an idle tap did not start ending")
	}
	kind, body, err := readFrame(bufio.NewReader(askTestTap(t, tp)), nil)
	if err != nil || kind != tapRefusal || !bytes.HasPrefix(body, []byte(hostNoStream)) {
		t.Fatalf("a reader of an idle tap got %c %q %v, want a refusal %q…", kind, body, err, hostNoStream)
	}
}
