package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// BenchmarkRunShellCommandAwaitingInput times run_shell_command on a
// command that asks a question, from the call to its awaiting_input
// answer (ms/awaiting), then answers it and collects the rest. It prints;
// it asserts nothing about time.
func BenchmarkRunShellCommandAwaitingInput(b *testing.B) {
	h, _, sock := testHandlers(b, DefaultLimits, tmuxctl.Config{})
	pane := strings.TrimSpace(tmuxtest.Run(b, sock, "new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "bench", "-x", "120", "-y", "30",
		"bash --norc --noprofile -i"))
	ctx := context.Background()
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		out, err := h.RunShellCommand(ctx, gen.RunShellCommandInput{PaneID: pane, Command: `printf "Overwrite config? [y/N] "; read a; echo got $a`,
			TimeoutMs: 20000, StopForInput: true, Keep: gen.RunShellCommandInputKeepTail})
		total += time.Since(start)
		if err != nil || out.Outcome != gen.RunShellCommandOutputOutcomeAwaitingInput {
			b.Fatalf("%v %v", out.Outcome, err)
		}
		if _, err := h.SendKeys(ctx, gen.SendKeysInput{PaneID: pane, Keys: []any{map[string]any{"text": "y"}, map[string]any{"key": "Enter"}}}); err != nil {
			b.Fatal(err)
		}
		if w, err := h.WaitForCommand(ctx, gen.WaitForCommandInput{CommandID: &out.CommandID, TimeoutMs: 20000}); err != nil || w.Outcome != gen.WaitForCommandOutputOutcomeCompleted {
			b.Fatalf("%v %v", w.Outcome, err)
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/awaiting")
}
