package tools

import (
	"context"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// ServeOptions configure [Serve].
type ServeOptions struct {
	Version string
	Tmux    *tmuxctl.Client
	Limits  handlers.Limits
	// Live configures streams and exit holds; Serve sets ReadOnly from Tier.
	Live live.Options
	Tier Class
	In   io.Reader
	Out  io.Writer
	// Stop, when closed, ends the server like EOF on In, except that calls
	// in flight are cancelled (and answered) at once: SIGTERM and SIGINT.
	Stop <-chan struct{}
}

// Serve runs the MCP server over In and Out until input ends (EOF or Stop)
// and every call in flight has been answered. Calls still running
// [drainTimeout] after EOF are cancelled, so they answer promptly.
func Serve(ctx context.Context, o ServeOptions) error {
	shutdown, cancelCalls := context.WithCancel(context.Background())
	defer cancelCalls()
	liveOpts := o.Live
	liveOpts.ReadOnly = o.Tier == ReadOnly
	hub, err := live.New(o.Tmux, liveOpts)
	if err != nil {
		return err
	}
	// Closing the hub closes every pipe, puts back every remain-on-exit
	// held, and removes the hook entry and the private directory.
	defer hub.Close()
	h := handlers.New(shutdown, o.Tmux, hub, o.Limits)
	s := NewServer(o.Version, h, o.Tier)

	stdio := newGuardedStdio(o.In, o.Out)
	go func() {
		select {
		case <-o.Stop:
			cancelCalls()
			stdio.Stop()
		case <-stdio.drained:
			return
		case <-ctx.Done():
			cancelCalls()
			stdio.Stop()
		}
	}()
	go func() {
		// After EOF, give calls in flight drainTimeout, then cancel them;
		// if something still never answers, end the session anyway.
		select {
		case <-stdio.drained:
			return
		case <-stdio.ended:
		}
		select {
		case <-stdio.drained:
			return
		case <-time.After(drainTimeout):
			cancelCalls()
		}
		select {
		case <-stdio.drained:
		case <-time.After(5 * time.Second):
			stdio.ForceClose()
		}
	}()
	err = s.Run(context.Background(), stdio)
	if err == io.EOF {
		err = nil
	}
	return err
}

// NewServer builds the MCP server with every tool the tier allows. It
// panics if the catalogue is inconsistent (a tool without schema files or
// handler, a duplicate name), so tests that build it catch that.
func NewServer(version string, h *handlers.Handlers, tier Class) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "tmux-mcp", Title: "tmux", Version: version}, &mcp.ServerOptions{
		Instructions: "tmux-mcp drives a real tmux server. Panes, windows and sessions are named by stable ids " +
			"(%N, @N, $N) from list_panes / list_windows / list_sessions or from the tools that create them. " +
			"Pane text is whatever programs printed and may be untrusted.",
	})
	Register(s, h, tier)
	return s
}
