package imsg

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A Request is one tmux command for [Run] to send.
type Request struct {
	Socket string   // the server's socket path
	Argv   []string // the command line after tmux's own flags, as the binary would pack it
	Stdin  []byte   // what a "-" read (load-buffer -) gets; nil reads as empty
	// Environ and Cwd are what the tmux binary would pass from its own
	// process: the server uses them for new sessions and relative paths.
	Environ []string
	Cwd     string
	Term    string // $TERM, "" when unset
	// Sent, if set, is called once the command is written to the
	// server: from then on the server runs it whatever this end does.
	Sent func()
}

// A Result is what the command printed, on which stream, and its status.
type Result struct {
	Stdout, Stderr []byte
	Status         int
}

// A NoServerError means the socket could not be connected to: no server
// listens there (or it does not exist). Nothing was sent.
type NoServerError struct {
	Path string
	Err  error
}

// Error is what the tmux binary prints in the same case (client.c).
func (e *NoServerError) Error() string {
	if errors.Is(e.Err, syscall.ECONNREFUSED) {
		return "no server running on " + e.Path
	}
	var errno syscall.Errno
	msg := e.Err.Error()
	if errors.As(e.Err, &errno) {
		msg = errno.Error()
		if msg != "" {
			msg = strings.ToUpper(msg[:1]) + msg[1:] // as C's strerror words it
		}
	}
	return "error connecting to " + e.Path + " (" + msg + ")"
}

func (e *NoServerError) Unwrap() error { return e.Err }

// A SurpriseError is a server that did not follow the protocol as this
// package knows it: another protocol version, a message a command client
// is never sent, a malformed or cut-off message.
type SurpriseError struct {
	What string
	// Sent is whether the command had been sent when the surprise came, so
	// it may have run; when false, nothing can have run.
	Sent bool
}

func (e *SurpriseError) Error() string { return "tmux client protocol: " + e.What }

// Flags are the client flags [Run] identifies with: UTF-8 as tmux -u says,
// and nothing else — never a control-mode flag, never a terminal.
const Flags = ClientUTF8

// Run sends one command to the tmux server on req.Socket as an ordinary
// command client and returns what it printed and its exit status. tmux ends
// a command client after its command, so each Run is one connection.
// Cancelling ctx closes the connection, which ends a command that waits
// (wait-for) the way a killed tmux client would.
func Run(ctx context.Context, req Request) (Result, error) {
	conn, err := dial(ctx, req.Socket)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		var op *net.OpError
		if errors.As(err, &op) {
			err = op.Err
		}
		var sys *os.SyscallError
		if errors.As(err, &sys) {
			err = sys.Err
		}
		return Result{}, &NoServerError{Path: req.Socket, Err: err}
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	x := exchange{conn: conn, stdin: req.Stdin, streams: map[uint32]*stream{}, opened: map[uint32]bool{}}
	ident := identities.of(req)
	cmd, res, ok := packCommand(req.Argv)
	if !ok {
		// The binary checks only after identifying; so does this, so that
		// the server sees the same short-lived client either way.
		if _, err := conn.Write(ident); err != nil && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return res, nil
	}
	// One write (writev) of the identity, shared by every command, and the
	// command.
	out := net.Buffers{ident, Append(make([]byte, 0, HeaderSize+len(cmd)), MsgCommand, cmd)}
	if _, err := out.WriteTo(conn); err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		if err := x.writeErr(err); err != nil {
			return Result{}, err
		}
	} else if req.Sent != nil {
		req.Sent()
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(conn)
	res, err = x.serve(&Decoder{r: br})
	br.Reset(nil)
	readers.Put(br)
	if err != nil && ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	return res, err
}

// readers keeps the buffered readers of finished commands: one per
// command was most of a command's garbage (64 KiB), and a read tool's
// garbage is what its GC costs.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// dial connects to socket. A unix socket whose listen queue is full
// refuses at once with EAGAIN (the binary then gives up with "Resource
// temporarily unavailable"); this waits for room instead, as long as ctx
// allows.
func dial(ctx context.Context, socket string) (net.Conn, error) {
	var d net.Dialer
	pause := 50 * time.Microsecond
	for {
		conn, err := d.DialContext(ctx, "unix", socket)
		if err == nil || !errors.Is(err, syscall.EAGAIN) {
			return conn, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(pause):
		}
		pause = min(2*pause, 5*time.Millisecond)
	}
}

// An identityCache keeps the identify messages of the last two kinds of
// request: they depend only on its terminal, working directory and
// environment, which are the process's own and the same for every command
// of a kind (a caller sends one environment with some commands and a
// smaller one with others), and building them (an environ message per
// variable) was most of a command's garbage.
type identityCache struct {
	mu      sync.Mutex
	entries [2]identity // the most recently used first
}

// An identity is one request's identify messages and what they say.
type identity struct {
	term, cwd string
	environ   []string
	msgs      []byte // never changed once built: callers share it
}

func (id *identity) says(req Request) bool {
	return id.msgs != nil && req.Term == id.term && req.Cwd == id.cwd && slices.Equal(req.Environ, id.environ)
}

var identities identityCache

// of returns identify(req), built again only when req identifies
// differently from both entries kept.
func (c *identityCache) of(req Request) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.entries[0].says(req):
	case c.entries[1].says(req):
		c.entries[0], c.entries[1] = c.entries[1], c.entries[0]
	default:
		c.entries[1] = c.entries[0]
		c.entries[0] = identity{term: req.Term, cwd: req.Cwd, environ: slices.Clone(req.Environ), msgs: identify(req)}
	}
	return c.entries[0].msgs
}

// identify builds the messages a tmux client sends first (client.c
// client_send_identify), without IDENTIFY_STDIN and IDENTIFY_STDOUT: those
// would pass descriptors.
func identify(req Request) []byte {
	var b []byte
	b = Append(b, MsgIdentifyFlags, binary.LittleEndian.AppendUint32(nil, uint32(Flags)))
	b = Append(b, MsgIdentifyLongFlags, binary.LittleEndian.AppendUint64(nil, Flags))
	b = Append(b, MsgIdentifyTerm, cstring(req.Term))
	b = Append(b, MsgIdentifyFeatures, binary.LittleEndian.AppendUint32(nil, 0))
	b = Append(b, MsgIdentifyTTYName, cstring(""))
	cwd := req.Cwd
	if cwd == "" {
		cwd = "/"
	}
	b = Append(b, MsgIdentifyCwd, cstring(cwd))
	b = Append(b, MsgIdentifyClientPID, binary.LittleEndian.AppendUint32(nil, uint32(os.Getpid())))
	for _, kv := range req.Environ {
		if len(kv)+1 > MaxPayload || strings.IndexByte(kv, 0) >= 0 {
			continue // as the binary skips what cannot fit one message
		}
		b = Append(b, MsgIdentifyEnviron, cstring(kv))
	}
	return Append(b, MsgIdentifyDone, nil)
}

// packCommand builds MSG_COMMAND's payload (struct msg_command, then the
// NUL-terminated arguments). When argv cannot fit one message it returns
// instead what the tmux binary prints and exits with (client.c).
func packCommand(argv []string) ([]byte, Result, bool) {
	size := 0
	for _, a := range argv {
		size += len(a) + 1
	}
	if size > MaxMessage-4 {
		return nil, Result{Stderr: []byte("command too long\n"), Status: 1}, false
	}
	if 4+size > MaxPayload {
		// Fits tmux's own check but not one imsg: proc_send fails.
		return nil, Result{Stderr: []byte("failed to send command\n"), Status: 1}, false
	}
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+size), uint32(len(argv)))
	for _, a := range argv {
		b = append(append(b, a...), 0)
	}
	return b, Result{}, true
}

func cstring(s string) []byte { return append([]byte(s), 0) }

// A stream is a file the server writes to through this client.
type stream struct {
	buf  *bytes.Buffer // stdout or stderr
	file *os.File      // a path the server asked this client to write
}

type exchange struct {
	conn      net.Conn
	stdin     []byte
	stdinUsed bool
	// stdoutUsed and stderrUsed: each standard stream can be opened once.
	stdoutUsed, stderrUsed bool
	stdout                 bytes.Buffer
	stderr                 bytes.Buffer
	streams                map[uint32]*stream // open write streams
	opened                 map[uint32]bool    // every stream number seen, read or write
}

// serve answers the server until it ends the command, as client.c
// client_dispatch_wait and file.c's client halves do.
func (x *exchange) serve(d *Decoder) (Result, error) {
	defer x.closeFiles()
	status := 0
	for {
		m, err := d.Next()
		switch {
		case err == io.EOF || errors.Is(err, syscall.ECONNRESET):
			// The server went away without ending the command: the binary
			// says "server exited unexpectedly" and exits 1.
			x.stderr.WriteString("server exited unexpectedly\n")
			return x.result(1), nil
		case err != nil:
			return Result{}, &SurpriseError{What: "reading: " + err.Error(), Sent: true}
		}
		switch m.Type {
		case MsgExit, MsgShutdown:
			if n := len(m.Data); n != 0 && n < 4 {
				return Result{}, x.surprise(m, "short exit status")
			}
			if len(m.Data) >= 4 {
				status = int(int32(binary.LittleEndian.Uint32(m.Data)))
			}
			if len(m.Data) > 4 {
				msg := m.Data[4 : len(m.Data)-1]
				if i := bytes.IndexByte(msg, 0); i >= 0 {
					msg = msg[:i]
				}
				x.stderr.Write(msg)
				x.stderr.WriteByte('\n')
			}
			return x.result(status), nil
		case MsgExited:
			return x.result(status), nil
		case MsgDetach, MsgDetachKill:
			if err := x.send(MsgExiting, nil); err != nil {
				return Result{}, err
			}
		case MsgFlags:
			if len(m.Data) != 8 {
				return Result{}, x.surprise(m, "bad size")
			}
		case MsgWriteOpen:
			err = x.writeOpen(m)
		case MsgWrite:
			err = x.write(m)
		case MsgWriteClose:
			err = x.writeClose(m)
		case MsgReadOpen:
			err = x.readOpen(m)
		case MsgReadCancel:
			// Every read is answered in full at once, so a cancel can only
			// name a stream already done.
			if len(m.Data) != 4 || !x.opened[binary.LittleEndian.Uint32(m.Data)] {
				err = x.surprise(m, "unknown stream")
			}
		case MsgVersion:
			return Result{}, &SurpriseError{What: fmt.Sprintf("the server speaks protocol version %d, this client %d", m.PeerID&0xff, ProtocolVersion)}
		default:
			return Result{}, x.surprise(m, "not expected by a command client")
		}
		if err != nil {
			return Result{}, err
		}
	}
}

func (x *exchange) result(status int) Result {
	return Result{Stdout: x.stdout.Bytes(), Stderr: x.stderr.Bytes(), Status: status}
}

func (x *exchange) surprise(m Message, what string) error {
	return &SurpriseError{What: fmt.Sprintf("message type %d (%d bytes): %s", m.Type, len(m.Data), what), Sent: true}
}

func (x *exchange) send(t Type, data []byte) error {
	_, err := x.conn.Write(Append(nil, t, data))
	return x.writeErr(err)
}

// writeErr words a failed write. A server that closed its end (EPIPE) is
// read as gone at the next read, as the binary sees it; anything else is a
// surprise.
func (x *exchange) writeErr(err error) error {
	if err == nil || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
		return nil
	}
	return &SurpriseError{What: "writing: " + err.Error(), Sent: true}
}

func pair(a, b uint32) []byte {
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, a), b)
}

// path is the NUL-terminated path after a fixed payload; none means "-".
func path(data []byte) string {
	if len(data) == 0 {
		return "-"
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}

// writeOpen answers MSG_WRITE_OPEN (struct msg_write_open: stream, fd,
// flags, then the path) with MSG_WRITE_READY, as file.c file_write_open:
// fd 1 and 2 are this client's stdout and stderr, -1 a path to open. Like
// the binary, which closes its own descriptor once the server has it, each
// of stdout and stderr opens once: a second stream on stdout in one client
// (show-buffer after a command that printed) is refused with EBADF.
func (x *exchange) writeOpen(m Message) error {
	if len(m.Data) < 12 {
		return x.surprise(m, "short")
	}
	num := binary.LittleEndian.Uint32(m.Data)
	fd := int32(binary.LittleEndian.Uint32(m.Data[4:]))
	flags := int(int32(binary.LittleEndian.Uint32(m.Data[8:])))
	var errno syscall.Errno
	switch {
	case x.opened[num]:
		errno = syscall.EBADF
	case fd == 1 && !x.stdoutUsed:
		x.streams[num], x.stdoutUsed = &stream{buf: &x.stdout}, true
	case fd == 2 && !x.stderrUsed:
		x.streams[num], x.stderrUsed = &stream{buf: &x.stderr}, true
	case fd == -1:
		f, err := os.OpenFile(path(m.Data[12:]), flags|os.O_WRONLY|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
		if err != nil {
			errno = errnoOf(err)
		} else {
			x.streams[num] = &stream{file: f}
		}
	default:
		errno = syscall.EBADF
	}
	x.opened[num] = true
	return x.send(MsgWriteReady, pair(num, uint32(errno)))
}

func (x *exchange) write(m Message) error {
	if len(m.Data) < 4 {
		return x.surprise(m, "short")
	}
	s := x.streams[binary.LittleEndian.Uint32(m.Data)]
	if s == nil {
		if x.opened[binary.LittleEndian.Uint32(m.Data)] {
			return nil // a stream that failed to open: the binary drops the data
		}
		return x.surprise(m, "unknown stream")
	}
	if s.buf != nil {
		s.buf.Write(m.Data[4:])
	} else if s.file != nil {
		s.file.Write(m.Data[4:]) // as the binary, a failed write is not reported
	}
	return nil
}

func (x *exchange) writeClose(m Message) error {
	if len(m.Data) != 4 {
		return x.surprise(m, "bad size")
	}
	num := binary.LittleEndian.Uint32(m.Data)
	if !x.opened[num] {
		return x.surprise(m, "unknown stream")
	}
	if s := x.streams[num]; s != nil && s.file != nil {
		s.file.Close()
	}
	delete(x.streams, num)
	return nil
}

// readOpen answers MSG_READ_OPEN (struct msg_read_open: stream, fd, then
// the path) as file.c file_read_open: fd 0 is this client's stdin, served
// from memory and only once; -1 a path to read. Data goes in MSG_READ
// parts, then MSG_READ_DONE with an errno or 0.
func (x *exchange) readOpen(m Message) error {
	if len(m.Data) < 8 {
		return x.surprise(m, "short")
	}
	num := binary.LittleEndian.Uint32(m.Data)
	fd := int32(binary.LittleEndian.Uint32(m.Data[4:]))
	var data []byte
	var errno syscall.Errno
	switch {
	case x.opened[num]:
		errno = syscall.EBADF
	case fd == 0 && !x.stdinUsed:
		data, x.stdinUsed = x.stdin, true
	case fd == -1:
		f, err := os.OpenFile(path(m.Data[8:]), os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			errno = errnoOf(err)
			break
		}
		data, err = io.ReadAll(f)
		f.Close()
		if err != nil {
			errno = syscall.EIO // as the binary's read error callback says
		}
	default:
		errno = syscall.EBADF
	}
	x.opened[num] = true
	var out []byte
	const part = MaxPayload - 4
	for len(data) > 0 {
		n := min(len(data), part)
		out = Append(out, MsgRead, append(binary.LittleEndian.AppendUint32(nil, num), data[:n]...))
		data = data[n:]
		if len(out) >= 256<<10 {
			if _, err := x.conn.Write(out); err != nil {
				return x.writeErr(err)
			}
			out = out[:0]
		}
	}
	out = Append(out, MsgReadDone, pair(num, uint32(errno)))
	_, err := x.conn.Write(out)
	return x.writeErr(err)
}

func (x *exchange) closeFiles() {
	for _, s := range x.streams {
		if s.file != nil {
			s.file.Close()
		}
	}
}

func errnoOf(err error) syscall.Errno {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return syscall.EIO
}

// OnlyTmuxVariables keeps, of env, the TMUX and TMUX_PANE entries: all
// that a command which only reads needs to send. tmux copies every
// variable a client sends into a tree, which costs a read more than the
// reading does when the environment is large.
func OnlyTmuxVariables(env []string) []string {
	var kept []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") {
			kept = append(kept, kv)
		}
	}
	return kept
}
