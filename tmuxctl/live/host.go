package live

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
)

// HostWord is the first argument that runs the binary as the stream host
// of one tmux server: main dispatches it before reading any flag.
const HostWord = "host"

// hostProtoEnv, when set, replaces the host protocol's version
// (hostProtoDefault): a test runs "two versions of tmux-mcp on one tmux
// server" with it. A host and an instance of different versions never
// talk to each other's control socket: each version has its own host,
// socket and lock (the reader's wire, ltxtap1, is the same for all).
const hostProtoEnv = "TMUX_MCP_TEST_HOST_PROTO"

// hostLogEnv, when set, names a file the stream host an instance starts
// writes its errors to (by default it has no stderr).
const hostLogEnv = "TMUX_MCP_HOST_LOG"

// hostProtoDefault is the version of the host's control protocol ("new",
// "drop") and of its relays' FIFOs. 2: the relay's first line comes from
// cat, through a file beside the FIFO that the host removes, and a sync
// is answered only once the relay reads. 3: the relay's shell says its
// line itself and waits for the host's word on a second FIFO (".ack"):
// none when the host has taken the pane's pipe from it, "c" to become a
// cat, whose line (from the ".head" file) then says it reads.
const hostProtoDefault = "3"

// hostProto returns the host protocol version this process speaks.
func hostProto() string {
	if v := os.Getenv(hostProtoEnv); v != "" && plainPath(v) && !strings.ContainsAny(v, "/.") {
		return v
	}
	return hostProtoDefault
}

// hostSocket returns the socket of the stream host of the tmux server at
// socketPath (for this user and protocol version).
func hostSocket(socketPath, proto string) string {
	return filepath.Join(tapDir(socketPath), "host"+proto+tapSocketSuffix)
}

// hostLockPath is the lock file one host holds for its life: the host that
// takes it is the one that listens; another that fails to exits.
func hostLockPath(socket string) string {
	return strings.TrimSuffix(socket, tapSocketSuffix) + ".lock"
}

// isHostSocket reports whether a mark's socket is a stream host's
// ("host<version>.sock"), not an old per-pane tap's ("<hex>.sock").
func isHostSocket(socket string) bool {
	return strings.HasPrefix(filepath.Base(socket), "host")
}

// cleanDeadHost removes what a stream host that died left (its socket,
// its relays' FIFOs, its lock file, the directory if empty), unless a
// host holds its lock: that one's socket has the same name.
func cleanDeadHost(socket string) {
	hs := newStreamHost(socket, tmuxctl.LiveOps{}, 0)
	if _, err := os.Lstat(hs.dir); err != nil {
		return
	}
	lock, err := hs.lock()
	if err != nil {
		return
	}
	hs.releaseStaleFIFOs()
	os.Remove(hs.socket)
	hs.unlock(lock)
	os.Remove(hs.dir)
}

// hostRelayPatience is how long the host waits for a stream's relay to
// open its FIFO before it drops the stream (an instance that asked for
// it and died, a pipe-pane that never ran).
const hostRelayPatience = 10 * time.Second

// hostGrace is how long a host with no stream left waits for a new one
// before it ends.
const hostGrace = 2 * time.Second

// A streamHost is the process that owns the streams of every watched pane
// of one tmux server for every tmux-mcp instance of this user (see the
// package doc, "The stream host"). Each pane's stream is a [tap]; the
// host routes each reader to the tap of the generation it asks for.
type streamHost struct {
	socket string
	dir    string
	ops    tmuxctl.LiveOps
	grace  time.Duration
	proto  string // its protocol version, from its socket's name
	// fifoPrefix starts the names of its relays' FIFOs: "h<version>-".
	fifoPrefix string

	log *log.Logger // its stderr: nothing, unless TMUX_MCP_HOST_LOG names a file

	mu     sync.Mutex
	taps   map[[16]byte]*tap
	ending bool
	// emptied is closed and replaced whenever the last stream leaves.
	emptied chan struct{}
	conns   sync.WaitGroup // control and reader connections being dispatched
}

// hostExitOther is a host's exit status when another host of the same
// server and version holds the lock: the instance that started it dials
// that one.
const hostExitOther = 3

// RunHost runs the stream host whose command line (after [HostWord]) is
// args and returns its exit status: hostExitOther when another host of
// the same server and version already runs.
func RunHost(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("tmux-mcp host", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sock := fs.String("S", "", "tmux server socket")
	bin := fs.String("tmux", "tmux", "tmux binary")
	listen := fs.String("listen", "", "unix socket to serve on")
	grace := fs.Duration("grace", hostGrace, "end after this long without a stream")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *sock == "" || *listen == "" {
		fmt.Fprintln(stderr, "tmux-mcp host: want -S and --listen")
		return 2
	}
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	c := tmuxctl.New(tmuxctl.Config{Binary: *bin, SocketPath: *sock})
	hs := newStreamHost(*listen, c.LiveOps(livekey.Key{}), *grace)
	hs.log = log.New(stderr, fmt.Sprintf("tmux-mcp host %d: ", os.Getpid()), log.LstdFlags|log.Lmicroseconds)
	lock, err := hs.lock()
	if err != nil {
		if errors.Is(err, errHostRuns) {
			return hostExitOther
		}
		fmt.Fprintf(stderr, "tmux-mcp host: %v\n", err)
		return 1
	}
	hs.releaseStaleFIFOs()
	os.Remove(hs.socket) // a dead host's
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: hs.socket, Net: "unix"})
	if err != nil {
		fmt.Fprintf(stderr, "tmux-mcp host: %v\n", err)
		hs.unlock(lock)
		return 1
	}
	ln.SetUnlinkOnClose(false)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		hs.accept(ln)
	}()
	hs.log.Printf("listens on %s", hs.socket)
	hs.awaitIdle(signals)
	hs.log.Printf("ending")
	// Ending: no new stream is taken (ending is set), the socket's name
	// goes first so nobody new can connect, then the lock, so the next
	// instance that needs a host can start one at once.
	os.Remove(hs.socket)
	hs.unlock(lock)
	ln.Close()
	<-accepting
	hs.conns.Wait()
	hs.mu.Lock()
	taps := make([]*tap, 0, len(hs.taps))
	for _, t := range hs.taps {
		taps = append(taps, t)
	}
	hs.mu.Unlock()
	for _, t := range taps { // signalled: give every pane back
		t.end()
	}
	for _, t := range taps {
		<-t.finished
	}
	os.Remove(hs.dir) // only if no other host's (or old tap's) file is there
	hs.log.Printf("ended")
	return 0
}

func newStreamHost(socket string, ops tmuxctl.LiveOps, grace time.Duration) *streamHost {
	proto := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(socket), "host"), tapSocketSuffix)
	return &streamHost{
		socket: socket, dir: filepath.Dir(socket), ops: ops, grace: grace, proto: proto, fifoPrefix: "h" + proto + "-",
		taps: map[[16]byte]*tap{}, emptied: make(chan struct{}), log: log.New(io.Discard, "", 0),
	}
}

// errHostRuns is lock's error when another host holds the lock.
var errHostRuns = errors.New("another stream host runs")

// lock makes the private directory (0700, ours) and takes the host's lock
// file, which it holds until it ends: of two hosts starting at once, one
// takes it, and the other returns errHostRuns.
func (hs *streamHost) lock() (*os.File, error) {
	path := hostLockPath(hs.socket)
	for attempt := 0; ; attempt++ {
		if err := os.Mkdir(hs.dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		fi, err := os.Lstat(hs.dir)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && attempt < 3 {
				continue // an old tap, ending, removed it since: again
			}
			return nil, err
		}
		if !fi.IsDir() || fi.Mode().Perm() != 0o700 || !ownedByMe(fi) {
			return nil, fmt.Errorf("%s is not a private directory of this user", hs.dir)
		}
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && attempt < 3 {
				continue
			}
			return nil, err
		}
		if err := flock(f); err != nil {
			f.Close()
			return nil, errHostRuns
		}
		// The host before may have removed the file as it ended, after
		// we opened it: the lock is then on a file nobody else finds.
		held, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			return f, nil
		}
		f.Close()
		if attempt >= 3 {
			return nil, errHostRuns
		}
	}
}

// unlock removes the lock file (while holding it) and releases it.
func (hs *streamHost) unlock(f *os.File) {
	os.Remove(hostLockPath(hs.socket))
	f.Close()
}

// releaseStaleFIFOs removes the FIFOs a dead host of this version left in
// the directory. A relay whose shell waits to open one for writing (the
// host died between making it and the relay's start) is released: its
// open returns, and its first write fails, so it ends and tmux closes
// the pane's pipe.
func (hs *streamHost) releaseStaleFIFOs() {
	matches, _ := filepath.Glob(filepath.Join(hs.dir, hs.fifoPrefix+"*.fifo"))
	for _, path := range matches {
		releaseFIFO(path, os.O_RDONLY)
		releaseFIFO(relayACKPath(path), os.O_WRONLY)
		os.Remove(relayHeadPath(path))
	}
}

// releaseFIFO removes the FIFO at path and lets a relay waiting to open
// it go, by opening its other end for a moment: flag is O_RDONLY for the
// FIFO a relay writes into, O_WRONLY for the word FIFO it reads (see
// releaseStaleFIFOs). A relay that then waits for the word reads none,
// and ends without reading the pane's pipe.
func releaseFIFO(path string, flag int) {
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 || !ownedByMe(fi) {
		return
	}
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, 0)
	os.Remove(path)
	if err == nil {
		time.Sleep(10 * time.Millisecond) // a waiting open returns
		f.Close()
	}
}

// awaitIdle returns once the host has had no stream for its grace, or on
// a signal; the host is then ending (no new stream is taken).
func (hs *streamHost) awaitIdle(signals <-chan os.Signal) {
	for {
		hs.mu.Lock()
		n, emptied := len(hs.taps), hs.emptied
		if n == 0 {
			hs.mu.Unlock()
			select {
			case <-signals:
				hs.setEnding()
				return
			case <-time.After(hs.grace):
			}
			hs.mu.Lock()
			if len(hs.taps) == 0 {
				hs.ending = true
				hs.mu.Unlock()
				return
			}
			hs.mu.Unlock()
			continue
		}
		hs.mu.Unlock()
		select {
		case <-signals:
			hs.setEnding()
			return
		case <-emptied:
		}
	}
}

func (hs *streamHost) setEnding() {
	hs.mu.Lock()
	hs.ending = true
	hs.mu.Unlock()
}

// accept serves every connection until the listener closes.
func (hs *streamHost) accept(ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // out of descriptors, say: again soon
			continue
		}
		hs.conns.Add(1)
		go func() {
			defer hs.conns.Done()
			hs.dispatch(c)
		}()
	}
}

// hostReqTimeout bounds how long a connection has to send its request.
const hostReqTimeout = 5 * time.Second

// dispatch reads a connection's request and answers it: a reader's goes
// to the tap of its generation, a control request is answered here.
func (hs *streamHost) dispatch(c *net.UnixConn) {
	if err := checkPeer(c); err != nil {
		writeFrame(c, tapRefusal, []byte(err.Error()))
		c.Close()
		return
	}
	c.SetReadDeadline(time.Now().Add(hostReqTimeout))
	br := bufio.NewReader(c)
	line, err := br.ReadString('\n')
	if err != nil {
		c.Close()
		return
	}
	c.SetReadDeadline(time.Time{})
	f := strings.Fields(line)
	if len(f) > 0 && f[0] == hostHello(hs.proto) {
		fmt.Fprintln(c, hs.control(f[1:]))
		c.Close()
		return
	}
	var gen [16]byte
	if len(f) >= 2 && f[0] == tapHello {
		if b, err := hex.DecodeString(f[1]); err == nil && len(b) == 16 {
			copy(gen[:], b)
			hs.mu.Lock()
			t := hs.taps[gen]
			if t != nil && t.admit(c, br, f) {
				hs.mu.Unlock()
				return
			}
			hs.mu.Unlock()
		}
		writeFrame(c, tapRefusal, []byte(hostNoStream+f[1]+" in this stream host (pid "+strconv.Itoa(os.Getpid())+"): it ended, or its host was restarted"))
		c.Close()
		return
	}
	writeFrame(c, tapRefusal, []byte("want \"ltxtap1 <generation> <offset>\""))
	c.Close()
}

// hostNoStream starts a host's refusal of a generation it has no stream
// of.
const hostNoStream = "no stream of generation "

// hostHello starts a control request: "ltxhost<version> new <generation>
// <buffer bytes> <idle>" makes a stream and its FIFO and answers "ok
// <fifo> <host pid>"; "ltxhost<version> drop <generation>" drops a stream
// whose relay has not opened its FIFO. Anything else is answered "no
// <reason>".
func hostHello(proto string) string { return "ltxhost" + proto }

// control answers a control request (its words after the hello).
func (hs *streamHost) control(f []string) string {
	if len(f) < 2 {
		return "no bad request"
	}
	var gen [16]byte
	if b, err := hex.DecodeString(f[1]); err != nil || len(b) != 16 {
		return "no bad generation"
	} else {
		copy(gen[:], b)
	}
	switch f[0] {
	case "new":
		if len(f) != 4 {
			return "no bad request"
		}
		buffer, err1 := strconv.Atoi(f[2])
		idle, err2 := time.ParseDuration(f[3])
		if err1 != nil || err2 != nil || buffer <= 0 || idle <= 0 {
			return "no bad request"
		}
		path, err := hs.newStream(gen, buffer, idle)
		if err != nil {
			return "no " + err.Error()
		}
		return "ok " + path + " " + strconv.Itoa(os.Getpid())
	case "drop":
		hs.mu.Lock()
		t := hs.taps[gen]
		hs.mu.Unlock()
		if t != nil {
			t.dropUnopened()
		}
		return "ok"
	}
	return "no bad request"
}

// errHostEnding refuses a new stream to a host that is ending.
var errHostEnding = errors.New("ending")

// newStream makes the stream of generation gen: its FIFO, open for
// reading, and the tap that reads it once its relay has opened it.
func (hs *streamHost) newStream(gen [16]byte, buffer int, idle time.Duration) (string, error) {
	path := filepath.Join(hs.dir, hs.fifoPrefix+hex.EncodeToString(gen[:])+".fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return "", err
	}
	// Opened for reading without waiting for a writer, and held open for
	// writing too until the relay has written its first line: no end of
	// file before the relay has come.
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		os.Remove(path)
		return "", err
	}
	w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		r.Close()
		os.Remove(path)
		return "", err
	}
	ack, err := newACK(relayACKPath(path))
	if err != nil {
		w.Close()
		r.Close()
		os.Remove(path)
		return "", err
	}
	t := newTap("", gen, hs.socket, buffer, idle, hs.ops)
	t.fifo, t.hold, t.ack = path, w, ack
	hs.mu.Lock()
	if hs.ending {
		hs.mu.Unlock()
		ack.close()
		w.Close()
		r.Close()
		os.Remove(path)
		return "", errHostEnding
	}
	hs.taps[gen] = t
	hs.mu.Unlock()
	go func() {
		t.run(r)
		hs.log.Printf("stream %x of pane %s (relay: %s) ended: %s", gen[:4], t.pane, t.relay, t.why)
		hs.mu.Lock()
		delete(hs.taps, gen)
		if len(hs.taps) == 0 {
			close(hs.emptied)
			hs.emptied = make(chan struct{})
		}
		hs.mu.Unlock()
		close(t.finished)
	}()
	return path, nil
}

// relayHeader reads a line of the relay, "<pid> <pane>", from the FIFO r:
// it returns the pane, the pid and what came after the line. It fails if
// the line does not come within hostRelayPatience or the stream is
// dropped.
func (t *tap) relayHeader(r *os.File) (tmuxctl.PaneID, int, []byte, error) {
	t.armRelayDeadline(r)
	var got []byte
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if i := strings.IndexByte(string(got), '\n'); i >= 0 {
			r.SetReadDeadline(time.Time{})
			f := strings.Fields(string(got[:i]))
			pid := 0
			if len(f) == 2 {
				pid, _ = strconv.Atoi(f[0])
			}
			if pid <= 0 || !strings.HasPrefix(f[1], "%") {
				return "", 0, nil, fmt.Errorf("relay header %q", got[:i])
			}
			return tmuxctl.PaneID(f[1]), pid, got[i+1:], nil
		}
		if err != nil || len(got) > 256 {
			return "", 0, nil, fmt.Errorf("no relay: %v", err)
		}
	}
}

// armRelayDeadline bounds the wait for the relay's line on r by
// hostRelayPatience, or ends it now for a stream dropped already: a
// "drop" that came before the tap began to read set no deadline (it
// sets it under t.mu, as this does, so neither undoes the other).
func (t *tap) armRelayDeadline(r *os.File) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		r.SetReadDeadline(time.Now())
		return
	}
	r.SetReadDeadline(time.Now().Add(hostRelayPatience))
}

// hostRelayCommand is the pipe-pane command of a stream of the host. Its
// shell opens the FIFO and the word FIFO, keeps the pane's pipe (its
// standard input) on descriptor relayPipeFD too (a builtin's redirection,
// read's here, moves descriptor 0 while it runs; the shells keep 3 to 9
// for the user), writes a line with its pid and the pane's id (pane: the
// id, or the placeholder a CreationPipe fills) into the FIFO, and waits
// for the host's word. The host takes the pane's pipe from it where it
// can (takeRelayPipe) and says nothing: the shell then exits, and no
// process is left per pane. Otherwise the host says "c", and the shell
// becomes a `cat` of the same line (from the head file) and then of the
// pane's output into the FIFO. It runs only if the FIFO is there: a shell
// redirection would otherwise make a file.
func hostRelayCommand(fifo, pane string) string {
	q := tmuxctl.ShellQuote(fifo)
	ack := tmuxctl.ShellQuote(relayACKPath(fifo))
	head := tmuxctl.ShellQuote(relayHeadPath(fifo))
	return relayDelay() + "[ -p " + q + " ] && exec >" + q + " 3<" + ack + " 4<&0 && p=" + pane + " && echo $$ $p >" + head +
		" && echo $$ $p && read w <&3 && [ \"$w\" = c ] && exec 3<&- 4<&- cat " + head + " -"
}

// relayDelayEnv, when set to a number of seconds, makes every relay wait
// that long before it starts: a test of a relay slower than its program.
const relayDelayEnv = "TMUX_MCP_TEST_RELAY_DELAY"

// relayDelay is the start of a relay command that waits relayDelayEnv's
// seconds, or "".
func relayDelay() string {
	v := os.Getenv(relayDelayEnv)
	if v == "" || strings.Trim(v, "0123456789.") != "" {
		return ""
	}
	return "sleep " + v + " && "
}

// relayHeadPath is where a relay writing into fifo puts its first line
// for cat to write: the line then comes only once cat runs, so a relay
// that has said its line reads the pane's pipe, and output waiting there
// goes through at once. (The shell's own echo would come first and leave
// the pipe unread until cat had started, which on a loaded machine can
// be longer than a program takes to print and exit.)
func relayHeadPath(fifo string) string { return fifo + ".head" }

// relayPipeFD is the descriptor on which a relay's shell keeps the pane's
// pipe for the host to take (see hostRelayCommand).
const relayPipeFD = 4

// relayACKPath is the FIFO a relay writing into fifo waits on for the
// host's word.
func relayACKPath(fifo string) string { return fifo + ".ack" }

// A relayACK is the host's end of a relay's word FIFO: held open for
// reading and writing from the stream's start, so that the relay's open
// never waits and its read waits for the word.
type relayACK struct {
	path string
	r, w *os.File
}

func newACK(path string) (*relayACK, error) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, err
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		r.Close()
		os.Remove(path)
		return nil, err
	}
	return &relayACK{path: path, r: r, w: w}, nil
}

// say writes word for the relay, which has the FIFO open (it opens it
// before it writes its line), and closes the host's ends: the relay reads
// the word, or with none the end of the file.
func (a *relayACK) say(word string) error {
	var err error
	if word != "" {
		_, err = a.w.Write([]byte(word + "\n"))
	}
	a.close()
	return err
}

func (a *relayACK) close() {
	os.Remove(a.path)
	a.w.Close()
	a.r.Close()
}

// hostStartPatience bounds how long an instance waits for the host it
// needs to answer, starting it if none runs.
const hostStartPatience = tapJoinPatience

// errNoHost is hostCall's error when no stream host can be started here
// (the binary exits at once, say): the hub then reads panes through FIFOs
// of its own.
var errNoHost = errors.New("no stream host could be started")

// hostStarts is how many hosts one call starts, each of which exited
// without anyone answering, before it gives up with errNoHost.
const hostStarts = 3

// hostCall sends one control request to the host of this hub's server,
// starting the host first if none answers, and returns its answer (after
// "ok").
func (h *Hub) hostCall(ctx context.Context, words ...string) ([]string, error) {
	return h.callHost(ctx, true, words)
}

// hostCallNoStart is hostCall without starting a host.
func (h *Hub) hostCallNoStart(ctx context.Context, words ...string) ([]string, error) {
	return h.callHost(ctx, false, words)
}

func (h *Hub) callHost(ctx context.Context, start bool, words []string) ([]string, error) {
	socket := hostSocket(h.client.SocketPath(), h.proto)
	deadline := time.Now().Add(hostStartPatience)
	var started chan int // gets the exit status of the host this call started
	starts := 0
	pause := tapDialStep
	for {
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: socket, Net: "unix"})
		if err == nil {
			c.SetDeadline(time.Now().Add(hostReqTimeout))
			fmt.Fprintln(c, hostHello(h.proto)+" "+strings.Join(words, " "))
			line, err := bufio.NewReader(c).ReadString('\n')
			c.Close()
			f := strings.Fields(line)
			switch {
			case err == nil && len(f) > 0 && f[0] == "ok":
				return f[1:], nil
			case err == nil && !(len(f) == 2 && f[1] == errHostEnding.Error()):
				return nil, fmt.Errorf("the stream host (%s) refused %q: %s", socket, words[0], strings.TrimSpace(line))
			}
			// An ending host: the next one starts once it has gone.
		} else if start {
			select {
			case status := <-started:
				// It failed, or found another host (which is starting to
				// listen, or ending): again.
				started = nil
				if status != hostExitOther {
					starts++
				}
			default:
			}
			if started == nil {
				if starts >= hostStarts {
					return nil, fmt.Errorf("%w (%s)", errNoHost, socket)
				}
				started = h.startHost(socket)
			}
		} else {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the stream host (%s) does not answer", socket)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-h.done:
			return nil, ErrHubClosed
		case <-time.After(pause):
		}
		pause = min(2*pause, tapDialSlow)
	}
}

// startHost starts the stream host listening on socket, detached from
// this instance: its own session, no stdio, not killed with it. The
// channel returned gets its exit status (it is reaped while this process
// runs); -1 if it could not be started.
func (h *Hub) startHost(socket string) chan int {
	exited := make(chan int, 1)
	cmd := execHost(h.opts.TapBinary, HostWord, "-S", h.client.SocketPath(), "--tmux", h.ops.Binary(), "--listen", socket)
	if path := os.Getenv(hostLogEnv); path != "" {
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err == nil {
			cmd.Stderr = f
			defer f.Close() // the child has its own copy once started
		}
	}
	if err := cmd.Start(); err != nil {
		exited <- -1
		return exited
	}
	go func() {
		cmd.Wait()
		exited <- cmd.ProcessState.ExitCode()
	}()
	return exited
}
