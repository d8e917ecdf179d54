package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// outputCut is how a call asked for long output to be cut: which part to
// keep, and at most how many lines (nil: the server limit).
type outputCut struct {
	which    clip.Keep
	maxLines *int
}

// A cutOutput is a program's output cut for one result, with what the
// caller needs to know about the part left out and to read it.
type cutOutput struct {
	clip.Part
	EffectiveMaxLines int
	MaxLinesClamped   bool
	OmittedAtLine     *int    // nil when nothing was left out
	CutCursor         *string // capture_since from here reads the part left out
}

// cut cuts text, which starts at offset textStart of stream s, as c asks.
// The cursor to the part left out is given only while s is valid, as
// capture_since cannot read a stream that has ended.
func (h *Handlers) cut(s *live.Stream, textStart int64, text []byte, c outputCut) cutOutput {
	out := cutOutput{}
	out.EffectiveMaxLines, out.MaxLinesClamped = h.lineLimit(c.maxLines)
	out.Part = clip.Stream(text, c.which, out.EffectiveMaxLines, h.limits.MaxBytes)
	if out.OmittedBytes > 0 {
		at := out.AtLine
		out.OmittedAtLine = &at
		if _, failure := s.State(); failure == "" {
			cursor := s.Cursor(textStart + int64(out.At))
			out.CutCursor = &cursor
		}
	}
	return out
}

// lineLimit is the line limit a call gets for maxLines, and whether
// maxLines asked for more than the server allows.
func (h *Handlers) lineLimit(maxLines *int) (lines int, clamped bool) {
	lines = h.limits.lines(maxLines)
	return lines, maxLines != nil && *maxLines != lines
}
