package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrChannelAborted means a wait-for child ended without the channel being
// signalled: tmux 3.3a's `wait-for` exits 0 when its server dies.
var ErrChannelAborted = errors.New("the tmux server went away before the channel was signalled")

// WaitFor blocks until channel is signalled (tmux wait-for) or ctx ends. The
// wait is its own tmux client, ended when ctx ends, so a timeout or
// cancellation leaves nothing behind.
func (c *Client) WaitFor(ctx context.Context, channel string) error {
	if err := c.wake(ctx, channel); err != nil {
		return err
	}
	if !c.serverAlive(ctx) {
		return fmt.Errorf("wait-for %s: %w", channel, ErrChannelAborted)
	}
	return nil
}

// Wake is [Client.WaitFor] without its final check that the server still
// runs (one command less): it returns nil both when channel was signalled
// and when the server went away, for a caller that asks tmux next anyway.
func (c *Client) Wake(ctx context.Context, channel string) error { return c.wake(ctx, channel) }

// wake is WaitFor without the final check that the server still runs, for
// callers that look at the server next anyway: it returns nil both when
// channel was signalled and when the server went away.
func (c *Client) wake(ctx context.Context, channel string) error {
	argv := []string{"wait-for", "--", channel}
	r, err := c.unbounded(ctx, argv)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("wait-for %s: %w", channel, ctxErr)
	}
	if err != nil {
		return err
	}
	out := string(r.stdout) + string(r.stderr)
	if r.status != 0 {
		return classify(&CommandError{Argv: argv, Message: strings.TrimSpace(out)})
	}
	// A signalled wait prints nothing; a client whose server died prints
	// why (or nothing, on some versions), so check that the server is
	// still there before calling this a signal.
	if msg := strings.TrimSpace(out); msg != "" {
		return fmt.Errorf("wait-for %s: %w (%s)", channel, ErrChannelAborted, msg)
	}
	return nil
}

// Signal wakes every waiter on channel; with none, tmux keeps the signal
// for the next one.
func (c *Client) Signal(ctx context.Context, channel string) error {
	_, err := c.command(ctx, "wait-for", "-S", "--", channel)
	return err
}

// ServerRuns reports whether a tmux server answers on c's socket.
func (c *Client) ServerRuns(ctx context.Context) bool { return c.serverAlive(ctx) }

// serverAlive reports whether a tmux server answers on c's socket.
func (c *Client) serverAlive(ctx context.Context) bool {
	_, err := c.command(ctx, "list-sessions", "-F", "#{session_id}")
	return !errors.Is(err, ErrServerGone)
}
