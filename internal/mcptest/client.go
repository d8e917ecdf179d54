package mcptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// ProtocolVersion is the MCP revision the client asks for in initialize.
const ProtocolVersion = "2025-06-18"

// maxLine bounds one line of the server's output.
const maxLine = 64 << 20

// A Client talks to one MCP server.
type Client struct {
	w   io.Writer
	wmu sync.Mutex // one line at a time

	mu      sync.Mutex
	next    int
	byID    map[string]json.RawMessage // replies, by wire id
	arrived map[string]time.Time       // when each reply's line was read
	nullID  []json.RawMessage          // error replies with a null id
	notes   []json.RawMessage          // notifications and server requests
	changed chan struct{}              // closed and replaced on every message
	done    chan struct{}              // closed when the output has ended
	readErr error
}

// New returns a client that writes requests to w and reads the server's
// messages from r until r ends.
func New(r io.Reader, w io.Writer) *Client {
	c := &Client{w: w, next: 1, byID: map[string]json.RawMessage{}, arrived: map[string]time.Time{}, changed: make(chan struct{}), done: make(chan struct{})}
	go c.read(r)
	return c
}

func (c *Client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), maxLine)
	for sc.Scan() {
		at := time.Now()
		line := append(json.RawMessage(nil), bytes.TrimSpace(sc.Bytes())...)
		if len(line) == 0 {
			continue
		}
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		c.mu.Lock()
		switch {
		case json.Unmarshal(line, &probe) != nil || probe.Method != "":
			c.notes = append(c.notes, line)
		case len(probe.ID) == 0 || string(probe.ID) == "null":
			c.nullID = append(c.nullID, line)
		default:
			c.byID[string(probe.ID)] = line
			c.arrived[string(probe.ID)] = at
		}
		c.notifyLocked()
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.readErr = sc.Err()
	c.notifyLocked()
	c.mu.Unlock()
	close(c.done)
}

func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Done returns a channel closed when the server's output has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Send writes one line as it is (a request with an id of the caller's, a
// notification, or a line that is not JSON at all).
func (c *Client) Send(line string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := io.WriteString(c.w, line+"\n")
	return err
}

// Start sends a request with the next id of the client's own and returns
// that id as it is on the wire.
func (c *Client) Start(method string, params any) (id string, err error) {
	p, err := json.Marshal(params)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	id = strconv.Itoa(c.next)
	c.next++
	c.mu.Unlock()
	return id, c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, p))
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	if params == nil {
		return c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method))
	}
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, p))
}

// ErrOutputEnded is returned by a wait for a reply the server's output
// ended without.
var ErrOutputEnded = errors.New("the server's output ended without the reply")

// A TimeoutError is a reply that did not come within the bound.
type TimeoutError struct {
	ID    string
	Bound time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no reply to request %s within %v", e.ID, e.Bound)
}

// Wait returns the whole reply to request id (as on the wire), waiting at
// most bound. It returns [ErrOutputEnded] if the output ends first and a
// [*TimeoutError] after bound.
func (c *Client) Wait(id string, bound time.Duration) (json.RawMessage, error) {
	timeout := time.After(bound)
	for {
		c.mu.Lock()
		reply, ok := c.byID[id]
		changed := c.changed
		c.mu.Unlock()
		if ok {
			return reply, nil
		}
		select {
		case <-changed:
		case <-c.done:
			c.mu.Lock()
			reply, ok := c.byID[id]
			c.mu.Unlock()
			if ok {
				return reply, nil
			}
			return nil, ErrOutputEnded
		case <-timeout:
			return nil, &TimeoutError{ID: id, Bound: bound}
		}
	}
}

// Reply returns the reply to request id if it has arrived.
func (c *Client) Reply(id string) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.byID[id]
	return r, ok
}

// Arrived returns when the reply to request id was read off the server's
// output, before any decoding: a benchmark's end of a round trip that
// leaves out the client's own hand-over to the goroutine waiting for it.
func (c *Client) Arrived(id string) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	at, ok := c.arrived[id]
	return at, ok
}

// NullIDReplies returns the error replies with a null id so far.
func (c *Client) NullIDReplies() []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]json.RawMessage(nil), c.nullID...)
}

// Notifications returns the notifications (and server requests) so far, in
// arrival order.
func (c *Client) Notifications() []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]json.RawMessage(nil), c.notes...)
}

// A RPCError is a JSON-RPC error reply.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// Call sends a request and returns its result, waiting at most bound. A
// JSON-RPC error reply is a [*RPCError].
func (c *Client) Call(method string, params any, bound time.Duration) (json.RawMessage, error) {
	id, err := c.Start(method, params)
	if err != nil {
		return nil, err
	}
	return c.Result(id, bound)
}

// Result waits for the reply to request id, as [Client.Wait], and returns
// its result; a JSON-RPC error reply is a [*RPCError].
func (c *Client) Result(id string, bound time.Duration) (json.RawMessage, error) {
	raw, err := c.Wait(id, bound)
	if err != nil {
		return nil, err
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, fmt.Errorf("reply to %s: %v: %s", id, err, raw)
	}
	if msg.Error != nil {
		return nil, msg.Error
	}
	return msg.Result, nil
}

// Initialize performs the handshake: initialize, then
// notifications/initialized. It returns the initialize result.
func (c *Client) Initialize(name string, bound time.Duration) (json.RawMessage, error) {
	res, err := c.Call("initialize", map[string]any{"protocolVersion": ProtocolVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": name, "version": "1"}}, bound)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return res, c.Notify("notifications/initialized", nil)
}

// A ToolResult is a tools/call result as the wire has it.
type ToolResult struct {
	IsError           bool           `json:"isError"`
	StructuredContent map[string]any `json:"structuredContent"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// Text returns the result's text blocks, joined by newlines.
func (r ToolResult) Text() string {
	var b []byte
	for i, c := range r.Content {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, c.Text...)
	}
	return string(b)
}

// StartTool sends a tools/call and returns its id.
func (c *Client) StartTool(name string, args any, meta map[string]any) (string, error) {
	params := map[string]any{"name": name, "arguments": args}
	if meta != nil {
		params["_meta"] = meta
	}
	return c.Start("tools/call", params)
}

// ToolResult waits for the reply to tools/call id and decodes it.
func (c *Client) ToolResult(id string, bound time.Duration) (ToolResult, error) {
	raw, err := c.Result(id, bound)
	if err != nil {
		return ToolResult{}, err
	}
	var r ToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return ToolResult{}, fmt.Errorf("tools/call %s: %v: %s", id, err, raw)
	}
	return r, nil
}
