package clip

import (
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A Request is how a call asked for long output to be cut: which part to
// keep, and the line limit the call gets.
type Request struct {
	Which    Keep
	MaxLines int  // the limit the call gets
	Clamped  bool // the call asked for more lines than the server allows
}

// A Long is a program's output cut for one result, with what the caller
// needs to know about the part left out and to read it.
type Long struct {
	Part
	EffectiveMaxLines int
	MaxLinesClamped   bool
	OmittedAtLine     *int    // nil when nothing was left out
	CutCursor         *string // capture_since from here reads the part left out
}

// CutLong cuts text, which starts at offset textStart of stream s, as r
// asks, within maxBytes. The cursor to the part left out is given only
// while s is valid, as capture_since cannot read a stream that has ended.
func CutLong(s *live.Stream, textStart int64, text []byte, r Request, maxBytes int) Long {
	out := Long{EffectiveMaxLines: r.MaxLines, MaxLinesClamped: r.Clamped}
	out.Part = Stream(text, r.Which, r.MaxLines, maxBytes)
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
