package handlers

import (
	"strings"
	"unicode/utf8"
)

// A tail is pane text cut to the line and byte limits, newest kept.
type tail struct {
	Text          string
	DroppedLines  int // whole lines removed from the front by the line limit
	OmittedBytes  int // bytes removed from the front by the byte limit
	ReturnedBytes int
	ByteClamped   bool
}

// keepTail joins lines and keeps the newest that fit maxLines and maxBytes.
// Invalid UTF-8 becomes U+FFFD before anything is counted, and a byte cut
// lands on a rune boundary.
func keepTail(lines []string, maxLines, maxBytes int) tail {
	var t tail
	if maxLines >= 0 && len(lines) > maxLines {
		t.DroppedLines = len(lines) - maxLines
		lines = lines[t.DroppedLines:]
	}
	text := strings.ToValidUTF8(strings.Join(lines, "\n"), "\uFFFD")
	text, t.OmittedBytes = cutFront(text, maxBytes)
	t.ByteClamped = t.OmittedBytes > 0
	t.Text, t.ReturnedBytes = text, len(text)
	return t
}

// cutFront drops bytes from the front of valid UTF-8 s until it fits max,
// moving forward to the next rune start, and says how many it dropped.
func cutFront(s string, max int) (string, int) {
	if max < 0 {
		max = 0
	}
	if len(s) <= max {
		return s, 0
	}
	cut := len(s) - max
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return s[cut:], cut
}
