package screenwatch

import (
	"regexp"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/match"
)

// Find returns the first match of m in look u that takes in some of its
// fresh text and is not inside echoed (spans of u.Text): a match may start
// in the old part of a changed row ("Progress 10%" redrawn as "Progress
// 20%" matches "Progress 20%"), but text that was all on the screen
// before is never a match. With no patterns, the first fresh non-blank
// byte outside echoed is one, and the match is its whole row.
func Find(u Update, m *match.Matcher, echoed [][2]int) (start, end int, ok bool) {
	for _, sp := range u.Spans {
		if m.Empty() {
			for i := sp.From; i < sp.End; i++ {
				if c := u.Text[i]; c != ' ' && c != '\t' && !echo.Covered(echoed, i, i+1) {
					return sp.Start, sp.End, true
				}
			}
			continue
		}
		// A match ending in the fresh part of this row; one that starts
		// here and runs on into an old row below is not seen.
		if s, e, ok := m.Find(u.Text[:sp.End], sp.From, echoed); ok {
			return s, e, true
		}
	}
	return 0, 0, false
}

// Literals turns literal patterns into regular expressions that match
// them as a screen shows them: tmux's capture drops the blanks at the end
// of a row (3.2a cannot tell them from empty cells), so blanks that end a
// line of a pattern match the end of a row instead — a prompt "$ " is "$"
// at the end of a row. Compile them with match.New(…, true).
func Literals(patterns []string) []string {
	out := make([]string, len(patterns))
	for i, p := range patterns {
		lines := strings.Split(p, "\n")
		for j, l := range lines {
			if t := strings.TrimRight(l, " \t"); t != l {
				lines[j] = regexp.QuoteMeta(t) + `[ \t]*$`
			} else {
				lines[j] = regexp.QuoteMeta(l)
			}
		}
		out[i] = strings.Join(lines, `\n`)
	}
	return out
}
