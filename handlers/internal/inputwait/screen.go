package inputwait

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// A Screen is what tmux shows of the pane: its visible rows, the cursor,
// and whether a full-screen program holds the alternate screen.
type Screen struct {
	Rows      []string // trailing blanks of each row trimmed
	CursorX   int
	CursorY   int
	Alternate bool
}

// Same reports whether s and o show the same text, cursor and screen.
func (s Screen) Same(o Screen) bool {
	return s.CursorX == o.CursorX && s.CursorY == o.CursorY && s.Alternate == o.Alternate && slices.Equal(s.Rows, o.Rows)
}

// CursorAfterText reports whether the cursor sits just after text on its
// row, where a program that asks a question and reads the answer leaves
// it ("Overwrite? [y/N] █", ">>> █", "$ █"). A program that printed whole
// lines (tail -f) leaves it at the start of an empty row.
func (s Screen) CursorAfterText() bool {
	if s.CursorY < 0 || s.CursorY >= len(s.Rows) || s.CursorX <= 0 {
		return false
	}
	row := s.Rows[s.CursorY]
	// Cells and runes agree except for wide characters; take the cursor
	// as after the text if it is at or past the row's end.
	before := row
	if n := utf8.RuneCountInString(row); s.CursorX < n {
		before = string([]rune(row)[:s.CursorX])
	}
	return strings.TrimSpace(before) != ""
}

// shownTail is how much of the cursor's row [Screen.InStream] looks for.
const shownTail = 16

// InStream reports whether text, the newest output a stream of the pane
// holds, has reached what the screen shows where the cursor waits: its
// last line holds the end of the text before the cursor (up to shownTail
// runes of it, so that what a line editor redrew around it does not
// matter). A full-screen program, or a cursor after no text, has nothing
// to compare and is in the stream.
func (s Screen) InStream(text []byte) bool {
	if s.Alternate || !s.CursorAfterText() {
		return true
	}
	before := []rune(s.Rows[s.CursorY])
	if s.CursorX < len(before) {
		before = before[:s.CursorX]
	}
	want := []rune(strings.TrimSpace(string(before)))
	if len(want) > shownTail {
		want = want[len(want)-shownTail:]
	}
	line := string(text)
	if i := strings.LastIndexAny(line, "\r\n"); i >= 0 {
		line = line[i+1:]
	}
	return strings.Contains(line, string(want))
}

// Prompt returns the question as the screen shows it: for a full-screen
// program, its last non-empty row (a status or command line); else the
// cursor's row when the cursor sits after text on it; else the last non-empty
// row above the cursor when it reads as a prompt (a question printed with
// a newline before the read). It returns "" when none shows.
func (s Screen) Prompt() string {
	if s.CursorAfterText() && !s.Alternate {
		return strings.TrimSpace(s.Rows[s.CursorY])
	}
	last := ""
	end := len(s.Rows)
	if !s.Alternate && s.CursorY >= 0 && s.CursorY < end {
		end = s.CursorY + 1
	}
	for i := end - 1; i >= 0; i-- {
		if t := strings.TrimSpace(s.Rows[i]); t != "" {
			last = t
			break
		}
	}
	if s.Alternate || LooksLikePrompt(last) {
		return last
	}
	return ""
}

// LastLines returns the last n non-blank-trailing rows of the screen.
func (s Screen) LastLines(n int) []string {
	rows := s.Rows
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	if len(rows) > n {
		rows = rows[len(rows)-n:]
	}
	return rows
}

// promptEnds are how prompts end: a question, a label, a REPL's or a
// shell's marker, a choice in brackets.
var promptEnds = []string{"?", ":", ">", "$", "#", "%", "]", ")", "»", "›", "❯", "➜", "→", "..."}

// promptWords mark a prompt wherever they are on the line.
var promptWords = []string{"password", "passphrase", "[y/n]", "(y/n)", "yes/no", "press any key", "press enter", "continue?"}

// LooksLikePrompt reports whether line reads as a question or a prompt.
func LooksLikePrompt(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	for _, end := range promptEnds {
		if strings.HasSuffix(t, end) {
			return true
		}
	}
	lower := strings.ToLower(t)
	for _, w := range promptWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
