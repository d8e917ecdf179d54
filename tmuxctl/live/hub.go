package live

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
)

// DefaultOptions are the server defaults; [New] uses each for a zero field.
var DefaultOptions = Options{BufferBytes: 1 << 20, Idle: 10 * time.Minute, ExitGrace: 10 * time.Minute}

// Options configure a [Hub].
type Options struct {
	BufferBytes int           // text kept per pane stream
	Idle        time.Duration // a stream unread this long expires
	ExitGrace   time.Duration // how long exits are kept and idle holds last
	// ReadOnly forbids every change to tmux but the pipes (and their
	// marks) that watching panes needs: no hook, no option, nothing that
	// makes tmux run something periodically.
	ReadOnly bool
	// TapBinary is the tmux-mcp binary started as the stream host
	// ([RunHost]), so that every instance shares each pane's stream.
	// Empty: each stream is this instance's own, through a FIFO.
	TapBinary string
	// UnwatchedCheck is how often started programs nobody waits on are
	// checked for an exit tmux missed (0: every 2 s). Tests that count
	// the commands one call sends set it past their run.
	UnwatchedCheck time.Duration
}

// A Hub owns the live state of one tmux server for this process: the pane
// streams, the death listener and, through [Hub.Exits], the held panes.
// See the package documentation for how it stays out of the user's way.
type Hub struct {
	client *tmuxctl.Client
	ops    tmuxctl.LiveOps // client's operations that only this layer performs
	opts   Options
	id     string // "<pid>.<random>": names this instance in every mark
	dir    string // private directory for FIFOs and other files
	exits  *ExitTracker
	// background holds the panes watched for no call (a spare pane):
	// what the hub sends for them on its own is sent as background work.
	background sync.Map

	swept chan struct{} // closed once the start-up sweep has run
	done  chan struct{} // closed by Close
	// ctx bounds the tmux work of the hub's own goroutines; Close cancels
	// it once it has cleaned up, so none of them outlives it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex // guards everything below; taken before any Stream.mu
	closed    bool
	stopped   bool // Close is waiting for the goroutines: start no more
	streams   map[tmuxctl.PaneID]*Stream
	pending   map[tmuxctl.PaneID]chan struct{} // watches being set up
	byGen     map[[16]byte]*Stream
	graveyard map[[16]byte]Failure // recently ended generations, for precise errors
	seq       int                  // names FIFOs
	listener  *deathListener       // nil until a death needs listening for
	feeders   map[*Stream]*fifo    // streams whose FIFO reader runs, retired or not, and their FIFOs

	// hostless is set once no stream host could be started: panes are
	// then read through FIFOs of this instance's own.
	hostless atomic.Bool
	proto    string // the stream host protocol version this hub speaks (hostProto)
}

// Bounds of the hub's own tmux work, which no caller's context bounds.
const (
	// closeTimeout bounds all the tmux work of [Hub.Close].
	closeTimeout = 5 * time.Second
	// stepTimeout bounds one step of a hub goroutine: a pipe's check or
	// close, a hold's end, a relay's record, a death check.
	stepTimeout = 5 * time.Second
	// sweepTimeout bounds the start-up sweep of dead instances' marks.
	sweepTimeout = 20 * time.Second
	// ackTimeout bounds one try at releasing a program's shell.
	ackTimeout = 2 * time.Second
	// listenerStopGrace is how long the death listener's child has to
	// end after its channel is signalled, before it is killed.
	listenerStopGrace = 2 * time.Second
	// readerPatience is how long Close lets FIFO readers end by
	// themselves once every pipe is closed, before it stops them.
	readerPatience = time.Second
)

// ErrHubClosed is returned by a closed hub.
var ErrHubClosed = errors.New("the stream hub is shut down")

// New returns a hub for c's server. It makes its private directory and
// starts sweeping what dead instances left behind (see the package doc);
// streams and holds wait for the sweep, so they never meet a stale mark.
func New(c *tmuxctl.Client, o Options) (*Hub, error) {
	if o.BufferBytes <= 0 {
		o.BufferBytes = DefaultOptions.BufferBytes
	}
	if o.Idle <= 0 {
		o.Idle = DefaultOptions.Idle
	}
	if o.ExitGrace <= 0 {
		o.ExitGrace = DefaultOptions.ExitGrace
	}
	if o.UnwatchedCheck <= 0 {
		o.UnwatchedCheck = unwatchedCheck
	}
	pid := strconv.Itoa(os.Getpid())
	dir, err := os.MkdirTemp("", instanceDirPrefix+pid+"-")
	if err != nil {
		return nil, fmt.Errorf("making a private directory: %w", err)
	}
	h := &Hub{
		client: c, ops: c.LiveOps(livekey.Key{}), opts: o, id: pid + "." + tmuxctl.Nonce(6), dir: dir, proto: hostProto(),
		swept: make(chan struct{}), done: make(chan struct{}),
		streams: map[tmuxctl.PaneID]*Stream{}, pending: map[tmuxctl.PaneID]chan struct{}{},
		byGen: map[[16]byte]*Stream{}, graveyard: map[[16]byte]Failure{}, feeders: map[*Stream]*fifo{},
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.exits = newExitTracker(h)
	h.goFunc(func() {
		defer close(h.swept)
		ctx, cancel := context.WithTimeout(h.ctx, sweepTimeout)
		defer cancel()
		h.sweep(ctx)
	})
	return h, nil
}

// Exits returns the hub's exit tracker.
func (h *Hub) Exits() *ExitTracker { return h.exits }

// Idle is how long a stream nobody reads lasts.
func (h *Hub) Idle() time.Duration { return h.opts.Idle }

// ExitGrace returns how long results are kept after their last wait.
func (h *Hub) ExitGrace() time.Duration { return h.opts.ExitGrace }

// Dir returns the hub's private directory (mode 0700), removed by Close.
func (h *Hub) Dir() string { return h.dir }

// goFunc runs f in a goroutine that Close waits for. Once Close has
// started waiting (a timer firing late, say), f does not run.
func (h *Hub) goFunc(f func()) (started bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return false
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		f()
	}()
	return true
}

// Ready waits for the start-up sweep (done, or given up after
// sweepTimeout), or for ctx: a server holds its tool calls on it, so no
// call sees or meets what a dead instance left.
func (h *Hub) Ready(ctx context.Context) error { return h.ready(ctx) }

// ready waits for the start-up sweep.
func (h *Hub) ready(ctx context.Context) error {
	select {
	case <-h.swept:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Watch returns the stream of pane p, starting it if needed. Output the
// pane prints after Watch returns is always in the stream. The stream of a
// pane that died is returned as long as it is valid, so its last output can
// still be read.
func (h *Hub) Watch(ctx context.Context, p tmuxctl.PaneID) (*Stream, error) {
	return h.watch(ctx, p, tmuxctl.Gate{}, nil)
}

// WatchNew is Watch for a pane this server has just made, with the host
// stream pre (nil for none) that [Hub.AskAhead] asked for while tmux made
// the pane; pre is dropped if the pane's stream does not take it.
func (h *Hub) WatchNew(ctx context.Context, p tmuxctl.PaneID, pre *AskedStream) (*Stream, error) {
	defer pre.Drop()
	return h.watch(ctx, p, tmuxctl.Gate{}, pre)
}

// WatchPiped starts the stream of a pane this server created for a program
// that has not started yet (see [tmuxctl.Client.StartGated]). With a gate
// that acks, the stream signals the gate's channel when it reads the
// program's exit marker, so the program's shell can end knowing that every
// byte the program printed was read.
func (h *Hub) WatchPiped(ctx context.Context, p tmuxctl.PaneID, gate tmuxctl.Gate) (*Stream, error) {
	return h.watch(ctx, p, gate, nil)
}

func (h *Hub) watch(ctx context.Context, p tmuxctl.PaneID, gate tmuxctl.Gate, pre *AskedStream) (*Stream, error) {
	h.noteBackground(ctx, p)
	done, err := h.setUp(ctx, p)
	if err != nil {
		return nil, err
	}
	defer done()

	old := h.stream(p)
	if old != nil && old.valid() && !old.isDead() && gate.AckChannel == "" && old.claim() {
		old.syncTap(ctx)
		return old, nil
	}
	s, err := h.startStream(ctx, p, gate, pre)
	var nf *tmuxctl.NotFoundError
	switch {
	case errors.As(err, &nf) && old != nil && old.valid():
		return old, nil // gone, but its output is still readable
	case err != nil:
		return nil, err
	case s.isDead() && old != nil && old.valid() && old.isDead():
		s.fail(HubClosed) // never registered: the old dead stream stands
		return old, nil
	}
	return h.register(p, s, old) // old: a dead pane that lives again
}

// register makes s pane p's stream, retiring old (p's stream until now,
// if any), unless the hub has closed.
func (h *Hub) register(p tmuxctl.PaneID, s, old *Stream) (*Stream, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		s.fail(HubClosed)
		return nil, ErrHubClosed
	}
	if old != nil {
		h.retireLocked(old, TopologyChanged)
	}
	h.streams[p] = s
	h.byGen[s.gen] = s
	s.touch()
	return s, nil
}

// setUp waits for the start-up sweep and for any other set-up of pane p's
// stream, then holds p's set-up until done is called: one set-up per pane
// at a time, since a second pipe-pane would find the first one's pipe and
// call the pane taken.
func (h *Hub) setUp(ctx context.Context, p tmuxctl.PaneID) (done func(), err error) {
	if err := h.ready(ctx); err != nil {
		return nil, err
	}
	for {
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, ErrHubClosed
		}
		wait, busy := h.pending[p]
		if !busy {
			h.pending[p] = make(chan struct{})
			h.mu.Unlock()
			break
		}
		h.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return func() {
		h.mu.Lock()
		close(h.pending[p])
		delete(h.pending, p)
		h.mu.Unlock()
	}, nil
}

// startStream starts the stream of pane p: through its tap, or without a
// tap binary through a FIFO of this instance's own. A gated program's
// exit marker is acked by this instance alone, which knows its nonce.
func (h *Hub) startStream(ctx context.Context, p tmuxctl.PaneID, gate tmuxctl.Gate, pre *AskedStream) (*Stream, error) {
	if h.opts.TapBinary != "" {
		return h.startTapStream(ctx, p, gate, pre)
	}
	return h.startFIFOStream(ctx, p, gate)
}

// startFIFOStream pipes pane p into a new FIFO and starts its reader. A
// dead pane gets a stream that is dead from the start.
func (h *Hub) startFIFOStream(ctx context.Context, p tmuxctl.PaneID, gate tmuxctl.Gate) (*Stream, error) {
	h.mu.Lock()
	h.seq++
	path := fmt.Sprintf("%s/pane%s-%d", h.dir, p[1:], h.seq)
	h.mu.Unlock()
	f, err := h.newFIFO(path)
	if err != nil {
		return nil, err
	}
	s := newStream(h, p, h.opts.BufferBytes)
	s.mark = h.id + "." + tmuxctl.Nonce(4)
	for attempt := 0; ; attempt++ {
		pane, opened, err := h.ops.OpenPipe(ctx, p, relayCommand(path), s.mark)
		var taken *tmuxctl.PipeTakenError
		if errors.As(err, &taken) && attempt == 0 && h.ownMark(taken.Mark) {
			// A pipe of ours whose stream has ended but which is not
			// closed yet: close it and try again.
			h.ops.ClosePipe(ctx, p, taken.Mark)
			continue
		}
		if err != nil || !opened {
			f.abandon()
			if err == nil && pane.Dead {
				// Nothing to pipe: a dead pane prints no more.
				return deadStream(h, p), nil
			}
			if err == nil {
				err = fmt.Errorf("pane %s: its pipe could not be opened", p)
			}
			return nil, err
		}
		break
	}
	if !h.startFeeding(s, f, gate) {
		h.ops.ClosePipe(ctx, p, s.mark)
		f.abandon()
		return nil, ErrHubClosed
	}
	return s, nil
}

// startFeeding starts the FIFO reader of s, unless the hub is closing.
func (h *Hub) startFeeding(s *Stream, f *fifo, gate tmuxctl.Gate) bool {
	h.mu.Lock()
	h.feeders[s] = f
	h.mu.Unlock()
	if !h.goFunc(func() { h.feed(s, f, gate) }) {
		h.mu.Lock()
		delete(h.feeders, s)
		h.mu.Unlock()
		return false
	}
	return true
}

// ownMark reports whether a pipe or hold mark is this instance's.
func (h *Hub) ownMark(mark string) bool {
	return len(mark) > len(h.id) && mark[:len(h.id)] == h.id && mark[len(h.id)] == '.'
}

// relayCommand is the pipe-pane command that copies a pane's output into
// fifo. It first writes its own process id on a line of its own, so that
// the stream can end it if the pane dies and tmux will not close the pipe;
// cat writes that line (see relayHeadPath), so a relay that said it reads.
func relayCommand(fifo string) string {
	head := tmuxctl.ShellQuote(relayHeadPath(fifo))
	return relayDelay() + "exec >" + tmuxctl.ShellQuote(fifo) + " && echo $$ >" + head + " && exec cat " + head + " -"
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

// Streams reports whether the hub reads pane p's output now: a Watch of
// p would return its stream at once, with no pipe to open.
func (h *Hub) Streams(p tmuxctl.PaneID) bool {
	s := h.stream(p)
	return s != nil && s.valid() && !s.isDead()
}

// stream returns the current stream of p, or nil.
func (h *Hub) stream(p tmuxctl.PaneID) *Stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[p]
}

// retireLocked removes a stream from the hub after it failed with f.
func (h *Hub) retireLocked(s *Stream, f Failure) {
	if h.streams[s.pane] == s {
		delete(h.streams, s.pane)
	}
	if o, ok := h.byGen[s.gen]; ok && o != s {
		return // a later stream of the same generation (a tap's) stands
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

// end retires stream s with failure f and closes its pipe.
func (h *Hub) end(s *Stream, f Failure) {
	h.mu.Lock()
	h.retireLocked(s, f)
	h.mu.Unlock()
	s.fail(f)
	ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
	defer cancel()
	h.closePipe(ctx, s)
}

// expire ends a stream nobody has read for the idle limit.
func (h *Hub) expire(s *Stream) {
	if !s.idleExpired() {
		return
	}
	h.goFunc(func() { h.end(s, Expired) })
}

// Close ends every stream with [HubClosed] and closes their pipes, ends
// every hold (putting the user's remain-on-exit back), removes the hook
// entry, and waits for every goroutine it started.
func (h *Hub) Close() {
	if streams, listener, ok := h.beginClose(); ok {
		h.finishClose(streams, listener)
	}
}

// beginClose is the first step of Close: the hub is closed (done), each
// stream retired. Its goroutines still run, with h.ctx, until
// finishClose has closed the pipes. ok is false if the hub was closed.
func (h *Hub) beginClose() (streams []*Stream, listener *deathListener, ok bool) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, nil, false
	}
	h.closed = true
	close(h.done)
	streams = make([]*Stream, 0, len(h.streams))
	for _, s := range h.streams {
		streams = append(streams, s)
		h.retireLocked(s, HubClosed)
	}
	listener = h.listener
	h.mu.Unlock()
	return streams, listener, true
}

// finishClose is the rest of Close.
func (h *Hub) finishClose(streams []*Stream, listener *deathListener) {
	// One deadline for all the clean-up, so a wedged tmux server cannot
	// hold the process: what is not done by then, the next start sweeps.
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	select {
	case <-h.swept:
	case <-ctx.Done():
	}
	h.exits.close(ctx)
	var wg sync.WaitGroup
	limit := make(chan struct{}, 8)
	for _, s := range streams {
		s.fail(HubClosed)
		wg.Add(1)
		limit <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-limit }()
			h.closePipe(ctx, s)
		}()
	}
	wg.Wait()
	if listener != nil {
		listener.stop(ctx)
	}
	h.cancel()
	h.waitGoroutines(readerPatience)
	os.RemoveAll(h.dir)
}

// waitGoroutines waits for the hub's goroutines, unblocking FIFO readers
// whose relay never connected.
func (h *Hub) waitGoroutines(patience time.Duration) {
	h.mu.Lock()
	h.stopped = true
	h.mu.Unlock()
	finished := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(finished)
	}()
	select {
	case <-finished:
		return
	case <-time.After(patience):
	}
	h.mu.Lock()
	stuck := maps.Clone(h.feeders)
	h.mu.Unlock()
	// Not under h.mu: a reader that ends takes it to leave h.feeders.
	for s, f := range stuck {
		s.stopReading(f)
	}
	<-finished
}

// noteBackground remembers that pane p is watched for work no call waits
// for (ctx from tmuxctl.Background: a spare pane), so that what the hub
// later sends for it on its own (its relay's record) is sent the same way.
func (h *Hub) noteBackground(ctx context.Context, p tmuxctl.PaneID) {
	if tmuxctl.InBackground(ctx) {
		h.background.Store(p, true)
	}
}
