package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/server/audit"
	"github.com/tmux-mcp/tmux-mcp/server/prompts"
	"github.com/tmux-mcp/tmux-mcp/server/resources"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// A Server is one tmux-mcp server: its MCP server (to run over any
// transport, or connect to several) and what it owns in tmux.
type Server struct {
	MCP *mcp.Server
	// Tmux is the client every part of the server talks to tmux with.
	Tmux *tmuxctl.Client

	cfg   Config
	audit *audit.Log // nil without an audit file
	hub   *live.Hub
	h     *handlers.Handlers
	// toolsAdded is closed once every offered tool is registered.
	toolsAdded chan struct{}
	resources  *resources.Resources // its subscriptions end before the hub closes
	// endWaits ends the handlers' shutdown context: every wait (and every
	// call with a time budget) ends at once as cancelled.
	endWaits context.CancelFunc
	// calls is the parent of every request's context as the handlers see
	// it; cancelCalls ends them all.
	calls       context.Context
	cancelCalls context.CancelFunc
	mu          sync.Mutex
	closing     bool           // Close has begun: requests are refused
	inFlight    sync.WaitGroup // the SDK's goroutine of each request, while our handler runs
	closeOnce   sync.Once
}

// startupGCPercent is the GOGC while the tools are added (see New).
const startupGCPercent = 400

// callsBound is how long Close waits for cancelled calls to return before
// it closes the hub under them. A cancelled call returns at once (its tmux
// child is killed); this only stops one that ignores its context from
// holding the process.
const callsBound = 5 * time.Second

// New builds the server and returns at once, ready to answer initialize:
// the two slow parts of a start run meanwhile, and every other request is
// held until both are done (see [Server.held]). They are the tools'
// registration (go-sdk parses each tool's schemas; tools/callpath resolves
// them on first use) and the
// hub's sweep of what dead instances left in tmux. The hub holds nothing
// in tmux until a tool watches a pane; Close puts back whatever it did set.
//
// The audit log, when cfg names one, is added outermost, so that it sees
// every call (refused ones too); the file stays open until the process
// ends.
func New(cfg Config) (*Server, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	tier, _ := cfg.tier()
	sel, _ := cfg.selection()
	var log *audit.Log
	if cfg.AuditFile != "" {
		var err error
		if log, _, err = audit.Open(cfg.AuditFile); err != nil {
			return nil, err
		}
	}
	client := tmuxctl.New(cfg.TmuxConfig())
	hub, err := live.New(client, cfg.liveOptions(tier))
	if err != nil {
		return nil, err
	}
	shutdown, endWaits := context.WithCancel(context.Background())
	calls, cancelCalls := context.WithCancel(context.Background())
	h := handlers.New(shutdown, client, hub, cfg.limits())
	res, pr := resources.New(client, hub), prompts.New(client)
	mcpServer, addTools := tools.NewServerLater(cfg.Version, h, tier, sel, cfg.SDKCalls, res.Configure, pr.Configure)
	s := &Server{MCP: mcpServer, Tmux: client, cfg: cfg, hub: hub, h: h, toolsAdded: make(chan struct{}),
		resources: res, endWaits: endWaits, calls: calls, cancelCalls: cancelCalls}
	res.Register(s.MCP)
	pr.Register(s.MCP)
	s.AddReceivingMiddleware(s.held)
	s.AddReceivingMiddleware(s.cancellable)
	if log != nil {
		s.audit = log
		s.AddReceivingMiddleware(s.audit.Middleware)
	}
	go func() {
		defer close(s.toolsAdded)
		// Adding the tools makes garbage at once (go-sdk parses every
		// schema into maps); with the default GOGC the small start-up
		// heap turns that into several collections before the first
		// tools/list (BenchmarkStartupPhases; when schemas were still
		// resolved here, about a third of its time). A higher ratio
		// meanwhile bounds the heap at about what is allocated; the
		// caller's is put back.
		defer debug.SetGCPercent(debug.SetGCPercent(startupGCPercent))
		addTools()
	}()
	return s, nil
}

// AddReceivingMiddleware adds middleware around every request; later
// additions run first.
func (s *Server) AddReceivingMiddleware(mw ...mcp.Middleware) {
	s.MCP.AddReceivingMiddleware(mw...)
}

// held holds every request but the handshake (initialize, ping, discover)
// and notifications until the server is ready for it: every tool added,
// so tools/list is whole and tools/call finds its tool, and the hub's
// start-up sweep done, so no call sees or meets what a dead instance left
// in tmux (a stale pipe, a held remain-on-exit, a buffer). Notifications
// are never held: go-sdk handles them in order on the connection's reader,
// so holding one would hold everything behind it (ping, a cancellation).
// A tools/call cancelled while held answers as its tool does when
// cancelled, if the server is ready soon after.
func (s *Server) held(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch {
		case method == "initialize", method == "ping", method == "server/discover",
			strings.HasPrefix(method, "notifications/"):
		default:
			// A wait that may watch a screen is not held for the sweep:
			// its stream waits for it anyway (the hub's set-up does), and
			// its screen's first look must be the call's start, not the
			// sweep's end (issue 32: the first wait on a pane the user
			// pipes missed what was printed while it was held).
			sweep := !screenWait(req)
			err := s.ready(ctx, sweep)
			if err != nil && method == "tools/call" {
				// A call cancelled while held still answers as that tool
				// does when cancelled (a wait: outcome cancelled, with
				// what it saw) once the server is ready, if that comes
				// soon; only a server still not ready answers the error.
				readySoon, cancel := context.WithTimeout(context.WithoutCancel(ctx), readyAfterCancel)
				err = s.ready(readySoon, sweep)
				cancel()
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
				}
			}
			if err != nil {
				return nil, err
			}
		}
		return next(ctx, method, req)
	}
}

// readyAfterCancel bounds how long a tools/call cancelled while held
// still waits for the server to be ready, to answer as its tool does.
const readyAfterCancel = 3 * time.Second

// ready waits until the tools are added and, if sweep, the hub has swept,
// or for ctx.
func (s *Server) ready(ctx context.Context, sweep bool) error {
	select {
	case <-s.toolsAdded:
	case <-ctx.Done():
		return fmt.Errorf("cancelled while tmux-mcp was starting: %w", ctx.Err())
	}
	if !sweep {
		return nil
	}
	if err := s.hub.Ready(ctx); err != nil {
		return fmt.Errorf("cancelled while tmux-mcp was clearing what stopped instances left in tmux: %w", err)
	}
	return nil
}

// screenWait reports whether req calls a wait that may watch a pane's
// screen (the pane's pipe is someone else's).
func screenWait(req mcp.Request) bool {
	r, ok := req.(*mcp.CallToolRequest)
	return ok && r.Params != nil && (r.Params.Name == "wait_for_text" || r.Params.Name == "wait_for_quiet")
}

var errClosing = errors.New("tmux-mcp is shutting down")

// cancellable gives every request a context that [Server.CancelCalls]
// ends too.
func (s *Server) cancellable(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			return nil, errClosing
		}
		s.inFlight.Add(1)
		s.mu.Unlock()
		defer s.inFlight.Done()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(s.calls, cancel)
		defer stop()
		if s.calls.Err() != nil {
			// AfterFunc calls cancel from a goroutine of its own, which a
			// quick call after CancelCalls could outrun.
			cancel()
		}
		return next(ctx, method, req)
	}
}

// EndWaits ends every wait in flight: each answers cancelled with what it
// saw. Waits that start later end as they start. Calls that do not wait
// (a capture, send_keys) are left to finish.
func (s *Server) EndWaits() { s.endWaits() }

// CancelCalls cancels every call in flight, waits or not, and every later
// one: a call whose tmux command is cut short answers with that error.
func (s *Server) CancelCalls() {
	s.endWaits()
	s.cancelCalls()
}

// Close cancels the calls in flight, waits for them to return (at most
// callsBound), and then closes the hub: every pipe closed, every
// remain-on-exit held put back, the hook entry and the private directory
// removed, every goroutine of the hub ended.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closing = true
		s.mu.Unlock()
		s.CancelCalls()
		returned := make(chan struct{})
		go func() {
			s.inFlight.Wait()
			close(returned)
		}()
		select {
		case <-returned:
		case <-time.After(callsBound):
			// A call ignoring its context: its watcher above ends
			// with it, and the process does not wait for either.
		}
		<-s.toolsAdded // CPU work only, done in milliseconds
		s.resources.Close()
		s.h.Close() // the spare pane
		// A kill sent without waiting for its answer is answered first,
		// so that the process does not end under it.
		sctx, cancel := context.WithTimeout(context.Background(), tmuxctl.CommandTimeout)
		s.Tmux.Settle(sctx)
		cancel()
		s.hub.Close()
	})
}
