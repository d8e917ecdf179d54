package wording

import (
	"strconv"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// The guards: conditions several tools refuse alike, each worded once.

// PaneDead refuses input to dead pane p, saying how its program ended.
func PaneDead(p tmuxctl.Pane) error {
	return errorf("pane %s is dead (its program exited%s); nothing reads input there — respawn_pane restarts it, kill_pane removes it, or use another pane", p.ID, exitSuffix(p))
}

func exitSuffix(p tmuxctl.Pane) string {
	switch {
	case p.ExitSignal != nil:
		return ", killed by " + *p.ExitSignal
	case p.ExitStatus != nil:
		return " with status " + strconv.Itoa(*p.ExitStatus)
	}
	return ""
}

// InMode refuses input to pane p while it is in copy mode (or another
// tmux mode): the input would drive the mode, not the program. forced says
// what force:true does instead, e.g. "send the keys to the mode anyway".
func InMode(p tmuxctl.PaneID, forced string) error {
	return errorf("pane %s is in copy mode (or another tmux mode), so input would go to the mode, not the program; send_keys \"q\" with enter:false leaves copy mode, or pass force:true to %s", p, forced)
}

// OwnPane refuses to act on own, the pane where this server itself runs;
// verb is the act ("kill", "type into").
func OwnPane(own tmuxctl.PaneID, verb string) error {
	return errorf("pane %s is where this MCP server itself runs; refusing to %s it — pass force:true if that is what you want", own, verb)
}

// OwnHolder refuses to act on what ("window @2", "session $0") because it
// holds own, the pane where this server itself runs; act is the whole act
// ("resize it", "kill it (that would stop this server)").
func OwnHolder(what string, own tmuxctl.PaneID, act string) error {
	return errorf("%s holds pane %s, where this MCP server itself runs; refusing to %s — pass force:true if that is what you want", what, own, act)
}
