package tmuxtest

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
)

// RunNative is [Run] over tmux's own client protocol, with no process, as
// tmuxctl's runner sends a line of readers (of the environment only TMUX
// and TMUX_PANE, the working directory read once): for benchmarks that set
// a tool call beside one bare native command, which must not be slower
// than the tool's own. It fails the test unless the command succeeds.
func RunNative(t testing.TB, sock string, args ...string) string {
	t.Helper()
	res, err := imsg.Run(context.Background(), imsg.Request{
		Socket: sock, Argv: args, Environ: readerEnviron(), Cwd: cwd(), Term: os.Getenv("TERM"),
	})
	if err != nil || res.Status != 0 {
		t.Fatalf("tmux %s (native): %v, status %d: %s", strings.Join(args, " "), err, res.Status, res.Stderr)
	}
	return string(res.Stdout)
}

var cwd = sync.OnceValue(func() string {
	dir, _ := os.Getwd()
	return dir
})

// readerEnviron is what tmuxctl's native client sends for a read.
func readerEnviron() []string { return imsg.OnlyTmuxVariables(os.Environ()) }
