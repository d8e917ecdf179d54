package wording

import "github.com/tmux-mcp/tmux-mcp/tmuxctl"

// Shell marks: what wait_for_command {paneId} says when a pane's shell
// does not mark its commands.

// CommandOrPane asks for one of wait_for_command's two targets.
func CommandOrPane() error {
	return errorf("give one of commandId (from run_shell_command) and paneId (a pane whose shell marks its prompts)")
}

// NoShellMarks says pane p's shell printed no OSC 133 prompt marks since
// this server began watching it (just now, when fresh).
func NoShellMarks(p tmuxctl.PaneID, fresh bool) error {
	since := "since tmux-mcp began watching it"
	if fresh {
		since = "yet (tmux-mcp began watching it just now)"
	}
	return errorf("pane %s's shell has marked no command (OSC 133) %s: use run_shell_command to run one and get its status and output. "+
		"create_session, create_window and split_window give the default bash, zsh or fish marks unless tmux-mcp runs with --no-shell-marks; "+
		"other shells need an OSC 133 shell integration. If it marks them, next:true waits for its next command", p, since)
}
