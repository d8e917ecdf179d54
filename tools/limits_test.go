package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// A value tmux takes in one command is stored up to 8192 bytes, and a
// longer one (within the schema's characters) is refused by name rather
// than by tmux's "command too long".
func TestOneCommandValues(t *testing.T) {
	sock := tmuxtest.Server(t)
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs, stop := serve(t, client, tools.Mutating, nil)
	defer stop()
	fits, tooLong := strings.Repeat("é", 4096), strings.Repeat("é", 4097) // 8192 and 8194 bytes
	for _, c := range []struct {
		tool string
		args map[string]any
		read []string
	}{
		{"set_option", map[string]any{"scope": "server", "name": "@big"}, []string{"show-options", "-sv", "@big"}},
		{"set_environment", map[string]any{"name": "BIG"}, []string{"show-environment", "-g", "BIG"}},
	} {
		call := func(v string) *mcp.CallToolResult {
			args := map[string]any{"value": v}
			for k, a := range c.args {
				args[k] = a
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if res := call(fits); res.IsError {
			t.Errorf("%s with 8192 bytes: %s", c.tool, res.Content[0].(*mcp.TextContent).Text)
		} else if got := strings.TrimSuffix(tmuxtest.Run(t, sock, c.read...), "\n"); !strings.HasSuffix(got, fits) {
			t.Errorf("%s: tmux holds %d bytes, not the value", c.tool, len(got))
		}
		res := call(tooLong)
		if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.HasPrefix(text, "value is 8194 bytes") {
			t.Errorf("%s with 8194 bytes: %v %s", c.tool, res.IsError, text)
		}
	}
}

// A program's argv too long for one tmux command is refused by name, and
// nothing is made.
func TestLongArgvIsRefused(t *testing.T) {
	sock := tmuxtest.Server(t)
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs, stop := serve(t, client, tools.Destructive, nil)
	defer stop()
	// The pane's pid, not its current command: that changes as the
	// pane's shell starts up (a loaded machine saw "bash", then "sh").
	// A respawned pane gets a new pid; a made one, a new id.
	before := tmuxtest.Run(t, sock, "list-panes", "-a", "-F", "#{pane_id} #{pane_pid}")
	argv := []string{"echo", strings.Repeat("x", 9000)}
	for _, c := range []struct{ tool, want string }{
		{"create_window", "nothing was created"},
		{"split_window", "nothing was created"},
		{"start_program", "nothing was created"},
		{"respawn_pane", "the pane was left as it was"},
	} {
		args := map[string]any{"argv": argv, "sessionId": "$0", "paneId": "%0"}
		if c.tool == "start_program" {
			args = map[string]any{"argv": argv}
		} else if c.tool != "create_window" {
			delete(args, "sessionId")
		} else {
			delete(args, "paneId")
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(text, "argv and cwd hold 90") || !strings.HasSuffix(text, c.want) {
			t.Errorf("%s with a 9000-byte argument: %v %s", c.tool, res.IsError, text)
		}
	}
	if after := tmuxtest.Run(t, sock, "list-panes", "-a", "-F", "#{pane_id} #{pane_pid}"); after != before {
		t.Errorf("panes changed:\n%s\nthen\n%s", before, after)
	}
}
