package handlers

import "github.com/tmux-mcp/tmux-mcp/gen"

// Each output type that reports an accounting takes it in through one of
// these, so no handler copies the fields one by one. Each names only the
// fields its schema has: a field renamed or removed there breaks the build
// here.

func (a accounting) intoCapturePane(out gen.CapturePaneOutput) gen.CapturePaneOutput {
	out.DroppedLines, out.OmittedBytes, out.ReturnedBytes, out.ByteClamped = a.DroppedLines, a.OmittedBytes, a.ReturnedBytes, a.ByteClamped
	return out
}

func (a accounting) intoSnapshotPane(out gen.SnapshotPaneOutput) gen.SnapshotPaneOutput {
	out.DroppedLines, out.OmittedBytes, out.ReturnedBytes, out.ByteClamped = a.DroppedLines, a.OmittedBytes, a.ReturnedBytes, a.ByteClamped
	return out
}

func (a accounting) intoCaptureSince(out gen.CaptureSinceOutput) gen.CaptureSinceOutput {
	out.DroppedLines, out.OmittedBytes, out.ReturnedBytes, out.ByteClamped = a.DroppedLines, a.OmittedBytes, a.ReturnedBytes, a.ByteClamped
	out.MissedBytes = a.MissedBytes
	return out
}

func (a accounting) intoRunProgram(out gen.RunProgramOutput) gen.RunProgramOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

func (a accounting) intoRunShellCommand(out gen.RunShellCommandOutput) gen.RunShellCommandOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

func (a accounting) intoWaitForText(out gen.WaitForTextOutput) gen.WaitForTextOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

func (a accounting) intoWaitForQuiet(out gen.WaitForQuietOutput) gen.WaitForQuietOutput {
	out.DroppedLines, out.OmittedBytes, out.MissedBytes, out.ReturnedBytes = a.DroppedLines, a.OmittedBytes, a.MissedBytes, a.ReturnedBytes
	return out
}

// The output of a command or program is cut as the call asks (keep,
// maxLines): on top of the accounting, its result says the line limit the
// call got and where the part left out is and how to read it.

func (k cutOutput) intoRunShellCommand(out gen.RunShellCommandOutput) gen.RunShellCommandOutput {
	out = k.accounting.intoRunShellCommand(out)
	out.EffectiveMaxLines, out.MaxLinesClamped = k.EffectiveMaxLines, k.MaxLinesClamped
	out.OmittedAtLine, out.CutCursor = k.OmittedAtLine, k.CutCursor
	return out
}

func (k cutOutput) intoRunProgram(out gen.RunProgramOutput) gen.RunProgramOutput {
	out = k.accounting.intoRunProgram(out)
	out.EffectiveMaxLines, out.MaxLinesClamped = k.EffectiveMaxLines, k.MaxLinesClamped
	out.OmittedAtLine, out.CutCursor = k.OmittedAtLine, k.CutCursor
	return out
}
