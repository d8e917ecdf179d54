package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
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
	run := func(command string) (*live.Hub, *handlers.Handlers, gen.RunShellCommandOutput) {
		t.Helper()
		hub, err := live.New(client, live.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(hub.Close)
		h := handlers.New(ctx, client, hub, handlers.DefaultLimits)
		// Forced: the first time, the new pane may not show its shell yet.
		out, err := h.RunShellCommand(ctx, gen.RunShellCommandInput{PaneID: "%0", Command: command, TimeoutMs: 20000, Force: true})
		if err != nil || out.Outcome != gen.RunShellCommandOutputOutcomeCompleted {
			t.Fatalf("run_shell_command %q: %+v, %v", command, out, err)
		}
		return hub, h, out
	}
	hub1, _, first := run("echo one")
	hub1.Close()
	_, h2, second := run("echo two")
	if first.CommandID == second.CommandID {
		t.Fatalf("both runs named their first command %s", first.CommandID)
	}
	_, err := h2.WaitForCommand(ctx, gen.WaitForCommandInput{CommandID: first.CommandID, TimeoutMs: 1000})
	if err == nil || !strings.Contains(err.Error(), "earlier server run") {
		t.Errorf("wait_for_command with the first run's id: %v, want an error naming an earlier server run", err)
	}
	got, err := h2.WaitForCommand(ctx, gen.WaitForCommandInput{CommandID: second.CommandID, TimeoutMs: 1000})
	if err != nil || got.Output != "two\n" {
		t.Errorf("wait_for_command with this run's id: %+v, %v", got, err)
	}
}
