package tmuxctl

import (
	"context"
	"errors"
	"sync"
)

// A barrier counts commands still waiting for tmux's answer and lets
// others wait until there are none.
type barrier struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while n is 0
}

func (b *barrier) add() {
	b.mu.Lock()
	if b.n == 0 {
		b.idle = make(chan struct{})
	}
	b.n++
	b.mu.Unlock()
}

func (b *barrier) done() {
	b.mu.Lock()
	if b.n--; b.n == 0 {
		close(b.idle)
		b.idle = nil
	}
	b.mu.Unlock()
}

// wait returns once no command is counted, or ctx ends.
func (b *barrier) wait(ctx context.Context) {
	b.mu.Lock()
	idle := b.idle
	b.mu.Unlock()
	if idle == nil {
		return
	}
	select {
	case <-idle:
	case <-ctx.Done():
	}
}

type sentKey struct{}

// sentHook is the function a command sent behind (ctx from
// [Client.KillPaneBehind]) calls once it is written to the server.
func sentHook(ctx context.Context) func() {
	f, _ := ctx.Value(sentKey{}).(func())
	return f
}

// awaitBehind holds a command until every command sent behind has been
// answered. The native client opens a connection per command, and tmux
// does not promise to read two connections in the order they were made:
// without this, a command sent after a kill-pane could still see the pane.
// The commands sent behind do not wait for each other.
func (c *Client) awaitBehind(ctx context.Context) {
	if sentHook(ctx) == nil {
		c.behind.wait(ctx)
	}
}

// Settle waits until every command sent behind has been answered, or ctx
// ends: before the process exits.
func (c *Client) Settle(ctx context.Context) { c.behind.wait(ctx) }

// KillPaneBehind kills pane p without waiting for tmux to finish: tmux
// 3.x built with utempter forks and waits for a helper for every pane it
// destroys, several milliseconds of a kill's answer. It returns once the
// kill-pane is written to the server (sent true: the server runs it from
// then on, whatever this process does) or answered first (the binary's
// transport answers before it returns; err is its answer). Every later
// command of c, and of clients that share its transport, waits for the
// kill's answer (copies of c share the count), so none sees the pane.
func (c *Client) KillPaneBehind(ctx context.Context, p PaneID) (sent bool, err error) {
	sentCh := make(chan struct{})
	var once sync.Once
	kctx := context.WithValue(context.WithoutCancel(ctx), sentKey{}, func() { once.Do(func() { close(sentCh) }) })
	answered := make(chan error, 1)
	c.behind.add()
	go func() {
		defer c.behind.done()
		_, err := c.command(kctx, "kill-pane", "-t", string(p))
		answered <- err
	}()
	select {
	case <-sentCh:
		return true, nil
	case err := <-answered:
		return false, err
	case <-ctx.Done():
		// The kill goes on; whether it reached tmux is not known.
		return false, errors.Join(ctx.Err(), errUnknownKill)
	}
}

var errUnknownKill = errors.New("the kill-pane may not have reached tmux")

// Ahead returns a context for commands sent ahead of later calls (a spare
// pane made between calls), and done, to be called once they are
// answered: until then every other command of c waits, so that what a
// later call makes comes after them, as it would without them (pane and
// window ids in order). Commands under the returned context do not wait.
func (c *Client) Ahead(ctx context.Context) (context.Context, func()) {
	c.behind.add()
	var once sync.Once
	return context.WithValue(ctx, sentKey{}, func() {}), func() { once.Do(c.behind.done) }
}
