package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A controlConn is one `tmux -C attach-session -t <session>` client. Its
// notifications feed the hub; commands sent on it are answered in order.
//
// It never sends `refresh-client -C`: a control client without a size does
// not take part in window sizing, so attaching it resizes nobody's windows.
type controlConn struct {
	hub     *Hub
	session SessionID
	cmd     *exec.Cmd
	stdin   io.WriteCloser

	mu       sync.Mutex
	waiters  []chan controlReply // one per command sent, in order; nil for fire-and-forget
	attached bool                // the attach command's own reply has come
	done     chan struct{}       // closed when the client has exited
	err      error
}

// pauseAfter is how far (in seconds) tmux may let this client fall behind
// a pane before pausing it instead of disconnecting the client. The reader
// never blocks, so a pause means the machine itself is starved.
const pauseAfter = "2"

// dialControl starts a control client attached to session s and waits
// until it is attached, so every output from then on reaches the hub.
func dialControl(ctx context.Context, h *Hub, s SessionID) (*controlConn, error) {
	cmd := h.client.cmd(context.Background(), []string{"-C", "attach-session", "-t", string(s)})
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting control client for %s: %w", s, err)
	}
	h.ownClient(cmd.Process.Pid, true)
	c := &controlConn{hub: h, session: s, cmd: cmd, stdin: stdin, done: make(chan struct{})}
	attached := make(chan controlReply, 1)
	c.waiters = []chan controlReply{attached} // the attach command's own reply
	go c.readLoop(stdout, &stderr)

	select {
	case r := <-attached:
		if r.Failed {
			c.close()
			return nil, classify(&CommandError{Argv: []string{"attach-session", "-t", string(s)}, Message: strings.Join(r.Lines, "\n")})
		}
	case <-c.done:
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = "control client exited"
		}
		return nil, classify(&CommandError{Argv: []string{"-C", "attach-session", "-t", string(s)}, Message: msg})
	case <-ctx.Done():
		c.close()
		return nil, ctx.Err()
	}
	// Ask tmux to pause a pane rather than drop this client when it falls
	// behind. (No refresh-client -B subscriptions: tmux 3.3a's subscription
	// timer crashed the tmux server here when sessions came and went under
	// control clients; deaths are reported by a pane-died hook instead.)
	c.send("refresh-client", "-f", "pause-after="+pauseAfter)
	return c, nil
}

// send writes a command without waiting for its reply.
func (c *controlConn) send(argv ...string) {
	c.write(argv, nil)
}

// do runs a command on the connection and returns its reply.
// errNotSent means a command never reached tmux: it may be sent another way.
var errNotSent = errors.New("not sent")

func (c *controlConn) do(ctx context.Context, argv ...string) (controlReply, error) {
	ch := make(chan controlReply, 1)
	if err := c.write(argv, ch); err != nil {
		return controlReply{}, fmt.Errorf("%w: %w", errNotSent, err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-c.done:
		return controlReply{}, fmt.Errorf("%s: control connection closed before tmux answered (the command may have run): %w", argv[0], ErrServerGone)
	case <-ctx.Done():
		return controlReply{}, ctx.Err()
	}
}

func (c *controlConn) write(argv []string, ch chan controlReply) error {
	line := controlLine(argv)
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.done:
		return fmt.Errorf("%s: control connection closed: %w", argv[0], ErrServerGone)
	default:
	}
	c.waiters = append(c.waiters, ch)
	if _, err := io.WriteString(c.stdin, line); err != nil {
		c.waiters = c.waiters[:len(c.waiters)-1]
		return fmt.Errorf("%s: writing to control client: %w", argv[0], err)
	}
	return nil
}

// controlLine quotes argv for tmux's command parser: every argument in
// single quotes, or in double quotes with \ " $ escaped when it holds a
// single quote or a newline.
func controlLine(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !strings.ContainsAny(a, "'\n\r") {
			b.WriteString("'" + a + "'")
			continue
		}
		b.WriteByte('"')
		for _, r := range a {
			switch r {
			case '\\', '"', '$':
				b.WriteByte('\\')
				b.WriteRune(r)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
	}
	b.WriteByte('\n')
	return b.String()
}

func (c *controlConn) readLoop(stdout io.Reader, stderr *strings.Builder) {
	cr := newControlReader(stdout)
	var err error
	for {
		var m controlMessage
		m, err = cr.Next()
		var syntax *controlSyntaxError
		if errors.As(err, &syntax) {
			continue
		}
		if err != nil {
			break
		}
		if m.Reply != nil {
			c.reply(*m.Reply)
			continue
		}
		c.event(m.Event)
	}
	c.cmd.Wait()
	c.hub.ownClient(c.cmd.Process.Pid, false)
	c.mu.Lock()
	c.err = err
	c.waiters = nil
	close(c.done)
	c.mu.Unlock()
	c.hub.connLost(c)
}

func (c *controlConn) reply(r controlReply) {
	c.mu.Lock()
	// Only the attach itself and commands this client sent (flags 1) have
	// a waiter; a block tmux writes for anything else (a hook's command,
	// say) must not take another command's reply.
	if r.Flags != 1 && c.attached {
		c.mu.Unlock()
		return
	}
	c.attached = true
	var ch chan controlReply
	if len(c.waiters) > 0 {
		ch = c.waiters[0]
		c.waiters = c.waiters[1:]
	}
	c.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

func (c *controlConn) event(ev controlEvent) {
	h := c.hub
	switch ev.Kind {
	case kindOutput, kindExtendedOutput:
		h.output(c, ev.Pane, ev.Data)
	case kindPause:
		h.paused(c, ev.Pane)
	case kindSessionChanged:
		// With detach-on-destroy off, tmux moves this client to another
		// session when its own ends.
		c.mu.Lock()
		c.session = ev.Session
		c.mu.Unlock()
		h.topologyChanged()
	case kindLayoutChange, kindWindowAdd, kindWindowClose, kindUnlinkedWindowClose,
		kindWindowPaneChanged, kindSessionWindowChanged, kindSessionsChanged, kindUnlinkedWindowAdd:
		h.topologyChanged()
	}
}

func (c *controlConn) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// sessionID returns the session the client is attached to now.
func (c *controlConn) sessionID() SessionID {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// close detaches the client: tmux ends a control client whose input
// closes. One that does not within a grace period is killed.
func (c *controlConn) close() {
	c.stdin.Close()
	go func() {
		select {
		case <-c.done:
		case <-time.After(2 * time.Second):
			c.cmd.Process.Kill()
		}
	}()
}
