package tools_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// serve builds the whole server, every toolset offered, at tier against client with
// package server, as the binary does (the read-only tier's hub
// included), connects a client session to it over in-memory transports,
// and returns the session and a stop function that closes the session and
// the server (safe to call twice). opts may be nil.
func serve(t *testing.T, client *tmuxctl.Client, tier tools.Class, opts *mcp.ClientOptions) (*mcp.ClientSession, func()) {
	t.Helper()
	return serveWith(t, client, tier, tools.All, opts)
}

// serveWith is serve for a server that offers sel (before tier filters it).
func serveWith(t *testing.T, client *tmuxctl.Client, tier tools.Class, sel tools.Selection, opts *mcp.ClientOptions) (*mcp.ClientSession, func()) {
	t.Helper()
	ctx := context.Background()
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary, cfg.SocketPath = "test", tmuxtest.Binary(), client.SocketPath()
	cfg.Safety = tools.TierName(tier)
	cfg.Toolsets, cfg.Tools = sel.Flags()
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP.Connect(ctx, st, nil)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		srv.Close()
		t.Fatal(err)
	}
	stopped := false
	return cs, func() {
		if !stopped {
			stopped = true
			cs.Close()
			ss.Close()
			srv.Close()
		}
	}
}

// connect is serve, stopped at the test's cleanup.
func connect(t *testing.T, client *tmuxctl.Client, tier tools.Class) *mcp.ClientSession {
	t.Helper()
	cs, stop := serve(t, client, tier, nil)
	t.Cleanup(stop)
	return cs
}

// connectWith is serveWith, stopped at the test's cleanup.
func connectWith(t *testing.T, client *tmuxctl.Client, tier tools.Class, sel tools.Selection) *mcp.ClientSession {
	t.Helper()
	cs, stop := serveWith(t, client, tier, sel, nil)
	t.Cleanup(stop)
	return cs
}
