package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// TestCommandIDsDoNotOutliveARestart runs a command with one server, stops
// it, runs another with a new server on the same tmux (the first command
// of each run), and checks that the new server names its command
// differently and refuses the old id, saying it is from an earlier run,
// instead of answering with its own command's result.
func TestCommandIDsDoNotOutliveARestart(t *testing.T) {
	sock := tmuxtest.Server(t)
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	call := func(cs *mcp.ClientSession, name string, args, out any) error {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			return &toolError{text: textOf(res)}
		}
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v: %s", name, err, raw)
		}
		return nil
	}
	run := func(command string) (*mcp.ClientSession, func(), gen.RunShellCommandOutput) {
		t.Helper()
		cs, stop := serve(t, client, tools.Mutating, nil)
		t.Cleanup(stop)
		var out gen.RunShellCommandOutput
		// Forced: the first time, the new pane may not show its shell yet.
		err := call(cs, "run_shell_command", map[string]any{"paneId": "%0", "command": command, "timeoutMs": 20000, "force": true}, &out)
		if err != nil || out.Outcome != gen.RunShellCommandOutputOutcomeCompleted {
			t.Fatalf("run_shell_command %q: %+v, %v", command, out, err)
		}
		return cs, stop, out
	}
	_, stop1, first := run("echo one")
	stop1()
	cs2, _, second := run("echo two")
	if first.CommandID == second.CommandID {
		t.Fatalf("both runs named their first command %s", first.CommandID)
	}
	var got gen.WaitForCommandOutput
	err := call(cs2, "wait_for_command", map[string]any{"commandId": first.CommandID, "timeoutMs": 1000}, &got)
	if err == nil || !strings.Contains(err.Error(), "earlier server run") {
		t.Errorf("wait_for_command with the first run's id: %v, want an error naming an earlier server run", err)
	}
	got = gen.WaitForCommandOutput{}
	err = call(cs2, "wait_for_command", map[string]any{"commandId": second.CommandID, "timeoutMs": 1000}, &got)
	if err != nil || got.Output != "two\n" {
		t.Errorf("wait_for_command with this run's id: %+v, %v", got, err)
	}
}

// A toolError is an isError result, in its own words.
type toolError struct{ text string }

func (e *toolError) Error() string { return e.text }
