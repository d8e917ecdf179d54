// Package stdio is an MCP transport over newline-delimited JSON-RPC on a
// reader and a writer, for a server started as a subprocess. It differs
// from go-sdk's own stdio transport in two ways a long-running tool server
// needs: a malformed line is answered with a JSON-RPC error instead of
// ending the session, and at end of input the calls in flight are
// answered before the session ends. It is its own [mcp.Connection]: lines
// go to the SDK as decoded messages and replies come back as messages, one
// write each, with no pipe, goroutine or second decoding between; requests
// are decoded and replies encoded here as go-sdk would, byte for byte, but
// without its fresh buffer per message and its second marshal (decode.go,
// encode). It depends on go-sdk, and on internal/pipes to tell what is
// unread.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/internal/pipes"
)

// maxLine bounds one inbound JSON-RPC line, as the SDK's own stdio does.
const maxLine = 16 << 20

// A Transport is an [mcp.Transport] over newline-delimited JSON-RPC on a
// reader and a writer (a server's stdin and stdout) that fixes two
// behaviours of the SDK's own stdio transport:
//
//   - A line that is not JSON-RPC ends the SDK's session. Here it is
//     answered with a JSON-RPC parse or invalid-request error and dropped,
//     so the server keeps serving.
//   - At EOF the SDK cancels requests in flight and drops their replies.
//     Here the SDK's input stays open after EOF until every request passed
//     on has been answered, or [Transport.ForceClose] gives up on them;
//     the server decides when (main.go ends waits at once).
//
// It is also the one writer of out, so its own error replies never
// interleave with the SDK's.
type Transport struct {
	in  io.Reader
	out io.Writer

	toSDK chan jsonrpc.Message // messages for the SDK's Read

	mu       sync.Mutex
	pending  map[jsonrpc.ID]bool // ids of requests the SDK has not answered yet
	inputEnd bool                // stdin ended or Stop was called
	closed   bool                // the SDK's input has ended
	ended    chan struct{}       // closed when inputEnd becomes true
	drained  chan struct{}       // closed when closed becomes true

	readerOnce sync.Once
	readerDone chan struct{} // closed when the line reader has returned
	stopping   atomic.Bool   // StopAfterReadable was called
}

// New returns a Transport that reads in and writes out. Pass it to
// [mcp.Server.Run]; it starts reading when the server connects.
func New(in io.Reader, out io.Writer) *Transport {
	return &Transport{in: in, out: out, toSDK: make(chan jsonrpc.Message), pending: map[jsonrpc.ID]bool{},
		ended: make(chan struct{}), drained: make(chan struct{}), readerDone: make(chan struct{})}
}

// Connect implements [mcp.Transport]. It starts the line reader, once;
// [Transport.Close] waits for it.
func (g *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	g.readerOnce.Do(func() {
		go func() {
			defer close(g.readerDone)
			g.readLines()
		}()
	})
	return &connection{g: g, closed: make(chan struct{})}, nil
}

// A connection is the SDK's side of a Transport.
type connection struct {
	g         *Transport
	closeOnce sync.Once
	closed    chan struct{}
}

// Read returns the next message passed on, or io.EOF once the SDK's input
// has ended (see [Transport]) or the SDK has closed the connection.
func (c *connection) Read(ctx context.Context) (jsonrpc.Message, error) {
	if ctx.Err() != nil { // as go-sdk's own connections: none after ctx ends
		return nil, ctx.Err()
	}
	select {
	case msg := <-c.g.toSDK:
		return msg, nil
	case <-c.g.drained:
		return nil, io.EOF
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write sends one message as one line, in one write.
func (c *connection) Write(ctx context.Context, msg jsonrpc.Message) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	data, err := encode(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	var answered []jsonrpc.ID
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
		answered = []jsonrpc.ID{resp.ID}
	}
	_, err = c.g.send(append(data, '\n'), answered)
	return err
}

// encode is jsonrpc.EncodeMessage(msg), but for a successful response:
// go-sdk has marshalled its result already, compactly, and it goes in as
// it is, where EncodeMessage would marshal it once more and compact it (a
// scan of the whole reply, which for a large capture costs more than the
// rest of the write). A result with a newline, never one go-sdk makes,
// takes the long way, so that a message stays one line.
func encode(msg jsonrpc.Message) ([]byte, error) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) == 0 || bytes.IndexByte(resp.Result, '\n') >= 0 {
		return jsonrpc.EncodeMessage(msg)
	}
	var id []byte
	switch v := resp.ID.Raw().(type) {
	case int64:
		id = strconv.AppendInt(nil, v, 10)
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // as EncodeMessage writes it
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		id = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	default:
		return jsonrpc.EncodeMessage(msg)
	}
	const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
	out := make([]byte, 0, len(head)+len(id)+len(mid)+len(resp.Result)+2) // and the newline Write adds
	out = append(append(append(append(out, head...), id...), mid...), resp.Result...)
	return append(out, '}'), nil
}

func (c *connection) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *connection) SessionID() string { return "" }

// ErrReaderBlocked is returned by [Transport.Close] when the line reader is
// still blocked reading an input that has no read deadline (a terminal, or
// a pipe in blocking mode): it ends with its input, not before.
var ErrReaderBlocked = errors.New("stdio: the input reader is blocked on an input without read deadlines; it ends when the input does")

// Close ends the session as [Transport.ForceClose] does and waits for the
// line reader to return. A reader blocked on its input is interrupted
// through the input's SetReadDeadline (an *os.File in non-blocking mode,
// a net.Conn); an input without one returns [ErrReaderBlocked] unless the
// reader has already ended (EOF).
func (g *Transport) Close() error {
	g.ForceClose()
	started := true
	g.readerOnce.Do(func() { started = false; close(g.readerDone) })
	if !started {
		return nil
	}
	if d, ok := g.in.(deadliner); ok && d.SetReadDeadline(time.Now()) == nil {
		<-g.readerDone
		return nil
	}
	select {
	case <-g.readerDone:
		return nil
	default:
		return ErrReaderBlocked
	}
}

// Stop ends input as if stdin had closed: requests in flight still get
// their replies, then the session ends.
func (g *Transport) Stop() {
	g.mu.Lock()
	g.endInputLocked()
	g.closeIfIdleLocked()
	g.mu.Unlock()
}

// StopAfterReadable ends input after the lines already written to it: a
// signal that stops the server can come before the line reader has read a
// request sent just before it, which is then answered like the calls in
// flight. The input's read deadline ends the line reader's wait on an
// input that stays open; while the input still holds unread bytes (a pipe
// tells how many), the reader reads on. An input without deadlines (a
// terminal) ends at once, as with Stop.
func (g *Transport) StopAfterReadable() {
	g.stopping.Store(true)
	if d, ok := g.in.(deadliner); ok && d.SetReadDeadline(time.Now().Add(stopReadGrace)) == nil {
		return
	}
	g.Stop()
}

// stopReadGrace is how long StopAfterReadable lets the line reader wait
// for input at a time.
const stopReadGrace = 20 * time.Millisecond

type deadliner interface{ SetReadDeadline(time.Time) error }

// readsOn reports whether the line reader, stopped by err, goes on:
// StopAfterReadable's deadline passed, but bytes written before it are
// still unread (a deadline already past fails a read without trying it).
func (g *Transport) readsOn(err error) bool {
	if !errors.Is(err, os.ErrDeadlineExceeded) || !g.stopping.Load() || g.isClosed() {
		return false
	}
	f, ok := g.in.(*os.File)
	if !ok || pipes.Unread(f) == 0 {
		return false
	}
	return f.SetReadDeadline(time.Now().Add(stopReadGrace)) == nil
}

// ForceClose ends the session even with replies outstanding.
func (g *Transport) ForceClose() {
	g.mu.Lock()
	g.endInputLocked()
	if !g.closed {
		g.closed = true
		close(g.drained)
	}
	g.mu.Unlock()
}

func (g *Transport) endInputLocked() {
	if !g.inputEnd {
		g.inputEnd = true
		close(g.ended)
	}
}

func (g *Transport) closeIfIdleLocked() {
	if g.inputEnd && len(g.pending) == 0 && !g.closed {
		g.closed = true
		close(g.drained)
	}
}

func (g *Transport) readLines() {
	r := bufio.NewReaderSize(g.in, 64<<10)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else if line != nil {
			line = line[:0:0] // too long: keep nothing, answer below
			line = append(line, 0)
		}
		if errors.Is(err, bufio.ErrBufferFull) || g.readsOn(err) {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) && !bytes.HasSuffix(line, []byte("\n")) {
			line = line[:0] // cut short by StopAfterReadable: not all sent yet
		}
		if len(line) > 0 && !g.isClosed() {
			g.handleLine(line)
		}
		line = line[:0]
		if err != nil {
			g.Stop()
			return
		}
	}
}

func (g *Transport) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

// handleLine passes a valid JSON-RPC line on to the SDK, recording the ids
// of requests, and answers anything else itself.
func (g *Transport) handleLine(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	msg, ids, err := decode(line)
	if err != nil {
		g.reply(errorReply(line, err))
		return
	}

	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	for _, id := range ids {
		g.pending[id] = true
	}
	g.mu.Unlock()
	select {
	case g.toSDK <- msg:
	case <-g.drained: // the session has ended
	}
}

// decode decodes a line as one JSON-RPC message and returns it with the
// id of the request in it (notifications and responses have none). A
// batch is refused here: the SDK ends the whole session on one (MCP dropped
// JSON-RPC batching in 2025-06-18), and one line must never cost the calls
// in flight.
func decode(line []byte) (jsonrpc.Message, []jsonrpc.ID, error) {
	// One JSON value and nothing after it: the SDK decodes the first value
	// and then ends the session on the trailing data.
	if !json.Valid(line) {
		return nil, nil, errors.New("not valid JSON")
	}
	if line[0] == '[' {
		return nil, nil, errBatch
	}
	msg, err := decodeMessage(line)
	if err != nil {
		return nil, nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		return msg, []jsonrpc.ID{req.ID}, nil
	}
	return msg, nil, nil
}

var errBatch = errors.New("JSON-RPC batches are not supported (MCP removed batching in 2025-06-18); send one message per line")

// errorReply builds the JSON-RPC error for a line the SDK must not see.
func errorReply(line []byte, err error) []byte {
	code, msg := jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error()
	var id any
	if line[0] == 0 {
		msg = fmt.Sprintf("invalid request: line longer than %d bytes", maxLine)
	} else if !json.Valid(line) {
		code, msg = jsonrpc.CodeParseError, "parse error: the line is not valid JSON"
	} else {
		var probe struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(line, &probe) == nil {
			switch probe.ID.(type) {
			case string, float64:
				id = probe.ID
			}
		}
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": msg},
	})
	return append(b, '\n')
}

// Write writes p, one or more whole messages, to the output and clears
// the ids of the requests it answers.
func (g *Transport) Write(p []byte) (int, error) {
	return g.send(p, responseIDs(p))
}

// send writes p, which answers the requests answered, to the output.
func (g *Transport) send(p []byte, answered []jsonrpc.ID) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n, err := g.out.Write(p)
	if err != nil {
		// Nobody reads the output any more (EPIPE): no request can be
		// answered, so input ends as at EOF and the session ends once the
		// calls in flight have returned.
		g.endInputLocked()
	}
	for _, id := range answered {
		delete(g.pending, id)
	}
	g.closeIfIdleLocked()
	return n, err
}

func (g *Transport) reply(p []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.out.Write(p)
}

// responseIDs returns the ids of the responses in an outgoing message.
func responseIDs(p []byte) []jsonrpc.ID {
	p = bytes.TrimSpace(p)
	var raws []json.RawMessage
	if len(p) > 0 && p[0] == '[' {
		if json.Unmarshal(p, &raws) != nil {
			return nil
		}
	} else {
		raws = []json.RawMessage{p}
	}
	var ids []jsonrpc.ID
	for _, raw := range raws {
		var probe struct {
			ID     any             `json:"id"`
			Method json.RawMessage `json:"method"`
		}
		if json.Unmarshal(raw, &probe) != nil || probe.Method != nil || probe.ID == nil {
			continue
		}
		id, err := jsonrpc.MakeID(probe.ID)
		if err == nil && id.IsValid() {
			ids = append(ids, id)
		}
	}
	return ids
}

// Ended returns a channel closed when input has ended: EOF on in, or Stop.
func (g *Transport) Ended() <-chan struct{} { return g.ended }

// Drained returns a channel closed when the SDK's input has closed: input
// has ended and every request passed on has been answered (or ForceClose).
func (g *Transport) Drained() <-chan struct{} { return g.drained }
