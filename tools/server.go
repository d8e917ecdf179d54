package tools

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/handlers"
)

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
