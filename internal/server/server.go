package server

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/internal/prompts"
	"github.com/tmux-mcp/tmux-mcp/internal/resources"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// Options are what [New] wires together.
type Options struct {
	Version string // reported in the initialize reply
	Tmux    *tmuxctl.Client
	Limits  handlers.Limits
	// Live configures streams and exit holds; New sets ReadOnly from Tier.
	Live live.Options
	Tier tools.Class
}

// A Server is one tmux-mcp server: its MCP server (to run over any
// transport, or connect to several) and what it owns in tmux.
type Server struct {
	MCP *mcp.Server

	hub         *live.Hub
	resources   *resources.Resources // its subscriptions end before the hub closes
	cancelCalls context.CancelFunc
	closeOnce   sync.Once
}

// New builds the server. The hub it starts holds nothing in tmux until a
// tool watches a pane; Close puts back whatever it did set.
func New(o Options) (*Server, error) {
	liveOpts := o.Live
	liveOpts.ReadOnly = o.Tier == tools.ReadOnly
	hub, err := live.New(o.Tmux, liveOpts)
	if err != nil {
		return nil, err
	}
	shutdown, cancel := context.WithCancel(context.Background())
	h := handlers.New(shutdown, o.Tmux, hub, o.Limits)
	res, pr := resources.New(o.Tmux, hub), prompts.New(o.Tmux)
	s := tools.NewServer(o.Version, h, o.Tier, res.Configure, pr.Configure)
	res.Register(s)
	pr.Register(s)
	return &Server{MCP: s, hub: hub, cancelCalls: cancel, resources: res}, nil
}

// CancelCalls ends every call in flight: waits answer cancelled with what
// they saw. Later calls are cancelled as they start.
func (s *Server) CancelCalls() { s.cancelCalls() }

// Close cancels the calls in flight and then closes the hub: every pipe
// closed, every remain-on-exit held put back, the hook entry and the
// private directory removed.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.cancelCalls()
		s.resources.Close()
		s.hub.Close()
	})
}
