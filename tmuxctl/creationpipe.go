package tmuxctl

import "strings"

// A CreationPipe pipes a new pane's output (pipe-pane -O) and marks the
// pipe, in the command list that creates the pane: no round trip after the
// creation, no check for someone else's pipe (a pane that did not exist
// has none), and the pipe holds the pane's output from its first byte.
// Only the live layer makes one ([LiveOps.CreationPipe]); the zero value
// pipes nothing. [Client.StartGated] uses it for a new window
// ([Placement.Pipe]) and reports it in [Created.Piped].
type CreationPipe struct {
	relay, pane, mark string
}

// CreationPipe returns the pipe into the shell command relay, marked as
// mark, where pane stands for the new pane's id in relay (it must appear
// exactly once: tmux puts the id there when it opens the pipe). It is the
// zero CreationPipe when it does not.
func (l LiveOps) CreationPipe(relay, pane, mark string) CreationPipe {
	if pane == "" || strings.Count(relay, pane) != 1 {
		return CreationPipe{}
	}
	return CreationPipe{relay: relay, pane: pane, mark: mark}
}

func (p CreationPipe) usable() bool { return p.relay != "" }

// commands pipes and marks the pane target names. pipe-pane expands a
// format in its command with the pane's values, so everything but the
// pane's id is escaped to stay as it is.
func (p CreationPipe) commands(target string) [][]string {
	before, after, _ := strings.Cut(p.relay, p.pane)
	relay := expandedLiterally(before) + "#{pane_id}" + expandedLiterally(after)
	// The mark first, as in OpenPipe: a list that fails there leaves no
	// pipe without its mark.
	return [][]string{
		{"set-option", "-p", "-t", target, PipeOption, p.mark},
		{"pipe-pane", "-O", "-t", target, relay},
	}
}
