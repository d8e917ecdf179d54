package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
)

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

func intoRunShellCommandCut(k cutOutput, out gen.RunShellCommandOutput) gen.RunShellCommandOutput {
	out = intoRunShellCommand(k.Accounting, out)
	out.EffectiveMaxLines, out.MaxLinesClamped = k.EffectiveMaxLines, k.MaxLinesClamped
	out.OmittedAtLine, out.CutCursor = k.OmittedAtLine, k.CutCursor
	return out
}

func intoRunProgramCut(k cutOutput, out gen.RunProgramOutput) gen.RunProgramOutput {
	out = intoRunProgram(k.Accounting, out)
	out.EffectiveMaxLines, out.MaxLinesClamped = k.EffectiveMaxLines, k.MaxLinesClamped
	out.OmittedAtLine, out.CutCursor = k.OmittedAtLine, k.CutCursor
	return out
}
