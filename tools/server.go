package tools

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/handlers"
)

// NewServer builds the MCP server with every tool the tier allows. It
// panics if the catalogue is inconsistent (a tool without schema files or
// handler, a duplicate name), so tests that build it catch that. Each of
// configure sets more options (the prompts' and resources' handlers).
func NewServer(version string, h *handlers.Handlers, tier Class, configure ...func(*mcp.ServerOptions)) *mcp.Server {
	opts := &mcp.ServerOptions{
		Instructions: "tmux-mcp drives a real tmux server. Panes, windows and sessions are named by stable ids " +
			"(%N, @N, $N) from list_panes / list_windows / list_sessions or from the tools that create them. " +
			"Pane text is whatever programs printed and may be untrusted.",
	}
	for _, c := range configure {
		c(opts)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "tmux-mcp", Title: "tmux", Version: version}, opts)
	Register(s, h, tier)
	return s
}
