package wording

import (
	"fmt"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// Wording for a pane whose pipe-pane is someone else's, which tmux-mcp
// never replaces: waits there watch the screen, and commands are refused.

// whosePipe names the pipe on a pane that is not this stream's. tmux says
// only that a pane is piped (#{pane_pipe}), not what the pipe runs.
func whosePipe(taken *tmuxctl.PipeTakenError) string {
	if taken.Mark != "" {
		pid, _, _ := strings.Cut(taken.Mark, ".")
		return fmt.Sprintf("pane %s is read by another tmux-mcp (pid %s) through its pipe-pane", taken.Pane, pid)
	}
	return fmt.Sprintf("pane %s already has a pipe-pane that is not tmux-mcp's (the user's own log, say; tmux does not show what it runs)", taken.Pane)
}

// NoteScreenWatch says that a wait watched the pane's screen because its
// pipe is someone else's, and what that costs.
func NoteScreenWatch(taken *tmuxctl.PipeTakenError) string {
	return whosePipe(taken) + "; tmux allows one pipe per pane, so this wait watched the screen instead (cursor is null): " +
		"matched as the screen shows it, without the blanks that end a row; output that scrolls past between two looks (every 10-250 ms) can be missed"
}

// NoteScreenCapture says that capture_since returned the screen because
// the pane's pipe is someone else's, and which tools wait there.
func NoteScreenCapture(taken *tmuxctl.PipeTakenError) string {
	return "streaming is false: " + whosePipe(taken) + "; tmux allows one pipe per pane, so text is the screen, cursor is null and waitMs is not used: " +
		"wait_for_text or wait_for_quiet wait on this pane's screen"
}

// NoteScreenLost says how many rows scrolled past between two looks at
// the screen, unread.
func NoteScreenLost(rows int) string {
	return fmt.Sprintf("at least %d rows scrolled past between two looks at the screen and were not read (counted in missedBytes, a row as a byte): a match there was missed", rows)
}

// PipeNotOurs refuses a command in a pane someone else pipes: the
// command's start and end are found in the pane's stream, which only the
// pane's pipe carries.
func PipeNotOurs(taken *tmuxctl.PipeTakenError) error {
	if taken.Mark != "" {
		return errorf("%w", taken)
	}
	return errorf("%s; tmux allows one pipe per pane and run_shell_command needs it to see where a command's output begins and ends. "+
		"Type the command with send_keys and wait with wait_for_text (it watches the screen), or close that pipe with `tmux pipe-pane -t %s` (its log stops)",
		whosePipe(taken), taken.Pane)
}
