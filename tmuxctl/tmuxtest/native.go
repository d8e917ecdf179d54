package tmuxtest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
)

// RunNative is [Run] over tmux's own client protocol, with no process, as
// tmuxctl's runner sends a command: for benchmarks that set a tool call
// beside one bare native command. It fails the test unless the command
// succeeds.
func RunNative(t testing.TB, sock string, args ...string) string {
	t.Helper()
	cwd, _ := os.Getwd()
	res, err := imsg.Run(context.Background(), imsg.Request{
		Socket: sock, Argv: args, Environ: os.Environ(), Cwd: cwd, Term: os.Getenv("TERM"),
	})
	if err != nil || res.Status != 0 {
		t.Fatalf("tmux %s (native): %v, status %d: %s", strings.Join(args, " "), err, res.Status, res.Stderr)
	}
	return string(res.Stdout)
}
