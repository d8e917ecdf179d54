package main

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/server/audit"
	"github.com/tmux-mcp/tmux-mcp/server/httpserve"
)

// httpServer returns the serve of --http: the same server as stdio's,
// over streamable HTTP at http://ADDR/mcp behind the bearer token, until
// Stop (SIGTERM, SIGINT).
func httpServer(cfg config, stderr io.Writer) func(context.Context, serveOptions) error {
	return func(ctx context.Context, o serveOptions) error {
		token, err := httpserve.Token(cfg.httpTokenFile)
		if err != nil {
			return err
		}
		srv, err := server.New(server.Options{Version: version, Tmux: o.Tmux, Limits: o.Limits, Live: o.Live, Tier: o.Tier})
		if err != nil {
			return err
		}
		defer srv.Close()
		if o.Setup != nil {
			if err := o.Setup(srv); err != nil {
				return err
			}
		}
		ln, err := net.Listen("tcp", cfg.httpAddr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "tmux-mcp: serving MCP at http://%s%s (bearer token required)\n", ln.Addr(), httpserve.Path)
		return httpserve.Serve(ctx, ln, httpserve.Handler(srv.MCP, token, cfg.httpOrigins...), o.Stop, srv.CancelCalls)
	}
}

// setup is what the flags add to a server before it serves: the audit
// log, outermost, so that it sees every call (refused ones too). The file
// stays open until the process ends.
func setup(cfg config) func(*server.Server) error {
	return func(srv *server.Server) error {
		if cfg.auditFile == "" {
			return nil
		}
		log, _, err := audit.Open(cfg.auditFile)
		if err != nil {
			return err
		}
		srv.AddReceivingMiddleware(log.Middleware)
		return nil
	}
}
