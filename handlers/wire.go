package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
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

// direction maps split_window's or join_pane's direction to tmuxctl's
// (below when omitted); above, left and right are that tool's constants.
func direction[D ~string](d, above, left, right D) tmuxctl.Direction {
	switch d {
	case above:
		return tmuxctl.Above
	case left:
		return tmuxctl.Left
	case right:
		return tmuxctl.Right
	}
	return tmuxctl.Below
}

// splitDirection is split_window's direction.
func splitDirection(d gen.SplitWindowInputDirection) tmuxctl.Direction {
	return direction(d, gen.SplitWindowInputDirectionAbove, gen.SplitWindowInputDirectionLeft, gen.SplitWindowInputDirectionRight)
}

// joinDirection is join_pane's direction.
func joinDirection(d gen.JoinPaneInputDirection) tmuxctl.Direction {
	return direction(d, gen.JoinPaneInputDirectionAbove, gen.JoinPaneInputDirectionLeft, gen.JoinPaneInputDirectionRight)
}

// resizeBorder maps resize_pane's direction to the border tmux moves.
func resizeBorder(d gen.ResizePaneInputDirection) tmuxctl.Border {
	switch d {
	case gen.ResizePaneInputDirectionUp:
		return tmuxctl.BorderUp
	case gen.ResizePaneInputDirectionDown:
		return tmuxctl.BorderDown
	case gen.ResizePaneInputDirectionLeft:
		return tmuxctl.BorderLeft
	}
	return tmuxctl.BorderRight
}

// keepPart maps a tool's keep enum to the part of long output to keep
// (the newest when omitted); head and both are that tool's constants.
func keepPart[K ~string](k, head, both K) clip.Keep {
	switch k {
	case head:
		return clip.First
	case both:
		return clip.Ends
	}
	return clip.Last
}
