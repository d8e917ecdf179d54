package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// This file is the one place where the lower layers' enums meet the wire's
// generated ones. Each mapping names every generated constant it uses, so a
// value renamed in a schema breaks the build here rather than drifting.

// wireFailure maps a stream's failure to the seed contract's streamFailure
// enum (for its anyOf [enum, null] field).
func wireFailure(f live.Failure) any { return seedFailure(f) }

// seedFailure is the seed contract's word for f, which the other waiting
// tools (wait_for_quiet, run_shell_command) report too.
func seedFailure(f live.Failure) gen.WaitForTextOutputStreamFailure_0 {
	switch f {
	case live.HubClosed:
		return gen.WaitForTextOutputStreamFailure_0_HubClosed
	case live.Expired:
		return gen.WaitForTextOutputStreamFailure_0_Expired
	case live.TopologyChanged:
		return gen.WaitForTextOutputStreamFailure_0_TopologyChanged
	case live.EventsDropped:
		return gen.WaitForTextOutputStreamFailure_0_EventsDropped
	}
	return gen.WaitForTextOutputStreamFailure_0_ConnectionLost
}

// splitDirection maps split_window's direction to tmuxctl's (below when
// omitted).
func splitDirection(d gen.SplitWindowInputDirection) tmuxctl.Direction {
	switch d {
	case gen.SplitWindowInputDirectionAbove:
		return tmuxctl.Above
	case gen.SplitWindowInputDirectionLeft:
		return tmuxctl.Left
	case gen.SplitWindowInputDirectionRight:
		return tmuxctl.Right
	}
	return tmuxctl.Below
}

// joinDirection maps join_pane's direction to tmuxctl's (below when
// omitted).
func joinDirection(d gen.JoinPaneInputDirection) tmuxctl.Direction {
	switch d {
	case gen.JoinPaneInputDirectionAbove:
		return tmuxctl.Above
	case gen.JoinPaneInputDirectionLeft:
		return tmuxctl.Left
	case gen.JoinPaneInputDirectionRight:
		return tmuxctl.Right
	}
	return tmuxctl.Below
}

// keepPart maps a tool's keep enum to the part of long output to keep
// (the newest when omitted); head and both are that tool's constants.
func keepPart[K ~string](k, head, both K) keepWhich {
	switch k {
	case head:
		return keepFirst
	case both:
		return keepEnds
	}
	return keepLast
}
