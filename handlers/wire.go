package handlers

import (
	"strconv"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/features"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/framed"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
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

// Each output type that reports an clip.Accounting takes it in through one of
// these, so no handler copies the fields one by one. Each names only the
// fields its schema has: a field renamed or removed there breaks the build
// here.

func intoCapturePane(a clip.Accounting, out gen.CapturePaneOutput) gen.CapturePaneOutput {
	out.DroppedLines, out.OmittedBytes, out.ReturnedBytes, out.ByteClamped = a.DroppedLines, a.OmittedBytes, a.ReturnedBytes, a.ByteClamped
	return out
}

func intoSnapshotPane(a clip.Accounting, out gen.SnapshotPaneOutput) gen.SnapshotPaneOutput {
	out.DroppedLines, out.OmittedBytes, out.ReturnedBytes, out.ByteClamped = a.DroppedLines, a.OmittedBytes, a.ReturnedBytes, a.ByteClamped
	return out
}

func intoCaptureSince(a clip.Accounting, out gen.CaptureSinceOutput) gen.CaptureSinceOutput {
	out.DroppedLines, out.OmittedBytes, out.ReturnedBytes, out.ByteClamped = a.DroppedLines, a.OmittedBytes, a.ReturnedBytes, a.ByteClamped
	out.MissedBytes = a.MissedBytes
	return out
}

func intoRunProgram(a clip.Accounting, out gen.RunProgramOutput) gen.RunProgramOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

func intoRunShellCommand(a clip.Accounting, out gen.RunShellCommandOutput) gen.RunShellCommandOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

func intoWaitForText(a clip.Accounting, out gen.WaitForTextOutput) gen.WaitForTextOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

func intoWaitForQuiet(a clip.Accounting, out gen.WaitForQuietOutput) gen.WaitForQuietOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

// The output of a command or program is cut as the call asks (keep,
// maxLines): on top of the clip.Accounting, its result says the line limit the
// call got and where the part left out is and how to read it.

func intoRunShellCommandCut(k clip.Long, out gen.RunShellCommandOutput) gen.RunShellCommandOutput {
	out = intoRunShellCommand(k.Accounting, out)
	out.EffectiveMaxLines, out.MaxLinesClamped = k.EffectiveMaxLines, k.MaxLinesClamped
	out.OmittedAtLine, out.CutCursor = k.OmittedAtLine, k.CutCursor
	return out
}

func intoRunProgramCut(k clip.Long, out gen.RunProgramOutput) gen.RunProgramOutput {
	out = intoRunProgram(k.Accounting, out)
	out.EffectiveMaxLines, out.MaxLinesClamped = k.EffectiveMaxLines, k.MaxLinesClamped
	out.OmittedAtLine, out.CutCursor = k.OmittedAtLine, k.CutCursor
	return out
}

// The seed schemas write optional values as anyOf [T, null], which the
// generator turns into interface{} fields. These helpers are the only way
// handlers fill them, so each holds a value of the schema's type or nil —
// never "" or 0 standing in for null.

// nullableCursor returns a cursor for an anyOf [cursor, null] field.
func nullableCursor(c string) any { return c }

// nullableStatus returns an exit status for an anyOf [integer, null] field.
func nullableStatus(status *int) any {
	if status == nil {
		return nil
	}
	return *status
}

// clientOnWire names how tmuxctl reaches tmux (its Transport).
func clientOnWire(transport string) gen.GetServerInfoOutputClient {
	if transport == tmuxctl.TransportExec {
		return gen.GetServerInfoOutputClientExec
	}
	return gen.GetServerInfoOutputClientNative
}

// commandOutcome names how a wait on a framed command ended.
func commandOutcome(o framed.Outcome) gen.RunShellCommandOutputOutcome {
	switch o {
	case framed.Completed:
		return gen.RunShellCommandOutputOutcomeCompleted
	case framed.Interrupted:
		return gen.RunShellCommandOutputOutcomeInterrupted
	case framed.Suspended:
		return gen.RunShellCommandOutputOutcomeSuspended
	case framed.TimedOut:
		return gen.RunShellCommandOutputOutcomeTimedOut
	case framed.PaneDied:
		return gen.RunShellCommandOutputOutcomePaneDied
	case framed.AwaitingInput:
		return gen.RunShellCommandOutputOutcomeAwaitingInput
	}
	return gen.RunShellCommandOutputOutcomeCancelled
}

// commandState names where a framed command is.
func commandState(s framed.State) gen.RunShellCommandOutputState {
	switch s {
	case framed.Ended:
		return gen.RunShellCommandOutputStateEnded
	case framed.Running:
		return gen.RunShellCommandOutputStateRunning
	}
	return gen.RunShellCommandOutputStateNotStarted
}

// programOutcome names how a wait on a program run_program started ended.
func programOutcome(end programEnd) gen.RunProgramOutputOutcome {
	if end.asking != nil {
		return gen.RunProgramOutputOutcomeAwaitingInput // the program runs on in paneId
	}
	switch end.ending {
	case waiting.Happened:
		return gen.RunProgramOutputOutcomeCompleted
	case waiting.Gone:
		return gen.RunProgramOutputOutcomeGone
	case waiting.TimedOut:
		return gen.RunProgramOutputOutcomeTimedOut // the program runs on in paneId
	}
	return gen.RunProgramOutputOutcomeCancelled
}

// wireFeatures names tmux's version features as get_server_info reports
// them.
func wireFeatures(fs []features.Feature) []gen.GetServerInfoOutputFeaturesElem {
	out := make([]gen.GetServerInfoOutputFeaturesElem, 0, len(fs))
	for _, f := range fs {
		out = append(out, wireFeature(f))
	}
	return out
}

func wireFeature(f features.Feature) gen.GetServerInfoOutputFeaturesElem {
	switch f {
	case features.PaneDeadSignal:
		return gen.GetServerInfoOutputFeaturesElemPaneDeadSignal
	case features.RemainOnExitFormat:
		return gen.GetServerInfoOutputFeaturesElemRemainOnExitFormat
	case features.DetachedSessionSize:
		return gen.GetServerInfoOutputFeaturesElemDetachedSessionSize
	case features.PipePaneOnDeadPane:
		return gen.GetServerInfoOutputFeaturesElemPipePaneOnDeadPane
	case features.InvalidUTF8ShownAsReplacement:
		return gen.GetServerInfoOutputFeaturesElemInvalidUtf8ShownAsReplacement
	case features.SessionNamesKeepPunctuation:
		return gen.GetServerInfoOutputFeaturesElemSessionNamesKeepPunctuation
	}
	panic("handlers: tmux feature " + strconv.Itoa(int(f)) + " has no wire name")
}
