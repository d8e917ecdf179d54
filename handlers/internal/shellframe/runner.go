package shellframe

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// The runners, one per shell family. Each is a shell file with @WORDS@ in
// place of what differs per command; see render.
var (
	//go:embed posix.sh
	posixRunner string
	//go:embed zsh.zsh
	zshRunner string
	//go:embed fish.fish
	fishRunner string
)

// The statuses a shell reports for a program stopped by SIGSTOP, SIGTSTP,
// SIGTTIN or SIGTTOU (128 + the signal), which the shell then leaves as a
// job. The runners report those as Stop markers.
const stopLow, stopHigh = 128 + 19, 128 + 22

// IsStopStatus reports whether status is one a shell gives a stopped program.
func IsStopStatus(status int) bool { return status >= stopLow && status <= stopHigh }

// render fills in kind's runner for the files f: the markers it prints
// (frame's formats), the files it reads and writes, the stop statuses.
// Lines starting with # are the runner file's comments, for its readers
// and shellcheck: they are dropped, so that the shell sources only the
// commands, exactly the runner the tests check.
func render(kind Kind, f Files) string {
	src := posixRunner
	switch kind {
	case Zsh:
		src = zshRunner
	case Fish:
		src = fishRunner
	}
	var statuses []string
	for s := stopLow; s <= stopHigh; s++ {
		statuses = append(statuses, strconv.Itoa(s))
	}
	scratch := tmuxctl.ShellQuote(f.scratch)
	fill := strings.NewReplacer(
		"@START@", frame.Printf(f.Nonce, frame.Start),
		"@END;%d@", frame.Printf(f.Nonce, frame.End),
		"@ABORT;%d;%s@", frame.Printf(f.Nonce, frame.Abort),
		"@STOP;%d;%s@", frame.Printf(f.Nonce, frame.Stop),
		"@NONCE@", f.Nonce,
		"@COMMAND@", tmuxctl.ShellQuote(f.command),
		"@SCRATCH@", scratch,
		// The trap's action is itself single-quoted: each quote of the
		// quoted path becomes '\''.
		"@SCRATCH_IN_TRAP@", strings.ReplaceAll(scratch, "'", `'\''`),
		"@STOP_STATUSES@", strings.Join(statuses, "|"),
		"@STOP_LOW@", strconv.Itoa(stopLow),
		"@STOP_HIGH@", strconv.Itoa(stopHigh),
	)
	var b strings.Builder
	for line := range strings.Lines(src) {
		if !strings.HasPrefix(line, "#") {
			b.WriteString(fill.Replace(line))
		}
	}
	return b.String()
}
