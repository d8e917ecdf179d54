package clip

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// An Accounting says what bounding a result's text cut and what it kept,
// in the fields every tool returning pane or stream text reports. The
// bounding functions below produce it; handlers/wire.go copies it into each
// output type.
type Accounting struct {
	DroppedLines  int  // whole lines removed from the front by the line limit
	OmittedBytes  int  // bytes removed from the front (see each bounding function)
	MissedBytes   int  // bytes the stream lost before they could be read
	ReturnedBytes int  // bytes of text returned
	ByteClamped   bool // whether the byte limit cut the text
}

// then is the Accounting of text bounded by a and then by b (a wait's
// window, then a call's limits): b's cuts add to a's, and what b kept is
// what is returned.
func (a Accounting) Then(b Accounting) Accounting {
	return Accounting{
		DroppedLines:  a.DroppedLines + b.DroppedLines,
		OmittedBytes:  a.OmittedBytes + b.OmittedBytes,
		MissedBytes:   a.MissedBytes + b.MissedBytes,
		ReturnedBytes: b.ReturnedBytes,
		ByteClamped:   a.ByteClamped || b.ByteClamped,
	}
}

// missing adds n bytes that a stream lost before they could be read.
func (a Accounting) Missing(n int64) Accounting {
	a.MissedBytes += int(n)
	return a
}

// A Kept is text cut to the line and byte limits, newest kept (a
// Part's may keep the first part too), and what the cut cost.
type Kept struct {
	Text string
	Accounting
}

// Newest joins lines and keeps the newest that fit maxLines and maxBytes.
// Invalid UTF-8 becomes U+FFFD before anything is counted, and a byte cut
// lands on a rune boundary.
func Newest(lines []string, maxLines, maxBytes int) Kept {
	var t Kept
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

// StreamNewest keeps the newest maxLines lines of text, then the newest
// maxBytes bytes of those. Unlike Newest it counts dropped lines' bytes
// as omitted (every byte removed from the front, by either limit), so that
// for stream reads newCursor − start = missedBytes + omittedBytes +
// returnedBytes. A final newline ends the last line rather than starting a
// new one.
func StreamNewest(text []byte, maxLines, maxBytes int) Kept {
	return Stream(text, Last, maxLines, maxBytes).Kept
}

// Keep says which part of long output a result keeps.
type Keep int

const (
	Last  Keep = iota // the newest lines
	First             // the first lines
	Ends              // the first and the newest, half the lines each
)

// A Part is stream text cut to the line and byte limits, with its
// Accounting: DroppedLines counts whole lines the line limit left out,
// OmittedBytes every byte left out by either limit. What it leaves out is
// always one run of bytes, text[At:At+OmittedBytes], so a cursor at At
// reads it, and nothing is put in its place.
type Part struct {
	Kept
	At     int // offset in text of the first byte left out (0 when none)
	AtLine int // lines of Text before the part left out (a line cut short counts)
}

// Stream keeps which part of text fits maxLines lines, then maxBytes
// bytes of that. Ends gives the first part ⌈maxLines/2⌉ lines and the
// newest the rest, and splits the bytes alike, either side using what the
// other does not need. The newest part is cut by bytes from its front, as
// StreamNewest does; the first part is cut by bytes back to the end of a
// line where it has one, so that what is left out starts a line. A final
// newline ends the last line rather than starting a new one.
func Stream(text []byte, which Keep, maxLines, maxBytes int) Part {
	maxLines, maxBytes = max(maxLines, 1), max(maxBytes, 0)
	starts := lineStarts(text)
	n := len(starts)
	headLines := n // the first part is text[:a], the newest text[b:]
	switch which {
	case Last:
		headLines = 0
	case Ends:
		headLines = (min(n, maxLines) + 1) / 2
	case First:
		headLines = min(n, maxLines)
	}
	tailLines := min(n, maxLines) - headLines
	a, b := lineStart(starts, headLines, len(text)), lineStart(starts, n-tailLines, len(text))
	var c Part
	c.DroppedLines = n - headLines - tailLines
	head, newest := text[:a], text[b:]
	if len(head)+len(newest) > maxBytes {
		headBudget := 0
		switch which {
		case First:
			headBudget = maxBytes
		case Ends:
			headBudget = min(len(head), max((maxBytes+1)/2, maxBytes-len(newest)))
		}
		head = cutBackToLine(head, headBudget)
		kept, _ := cutFront(string(newest), maxBytes-len(head))
		newest = newest[len(newest)-len(kept):]
		c.ByteClamped = true
	}
	c.Text = string(head) + string(newest)
	c.ReturnedBytes = len(c.Text)
	c.OmittedBytes = len(text) - len(c.Text)
	if c.OmittedBytes > 0 {
		c.At = len(head)
		c.AtLine = bytes.Count(head, []byte{'\n'})
		if len(head) > 0 && head[len(head)-1] != '\n' {
			c.AtLine++
		}
	}
	return c
}

// lineStarts returns the offset of every line of text; a final newline
// ends the last line rather than starting a new one.
func lineStarts(text []byte) []int {
	if len(text) == 0 {
		return nil
	}
	starts := []int{0}
	for i, ch := range text[:len(text)-1] {
		if ch == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineStart returns where line i starts, or end past the last line.
func lineStart(starts []int, i, end int) int {
	if i < len(starts) {
		return starts[i]
	}
	return end
}

// cutBackToLine keeps at most max bytes of the front of valid UTF-8 s,
// ending after a newline when one is in reach, else on a rune boundary.
func cutBackToLine(s []byte, max int) []byte {
	if len(s) <= max {
		return s
	}
	if i := bytes.LastIndexByte(s[:max], '\n'); i >= 0 {
		return s[:i+1]
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// TrimBlankTail drops the blank lines at the end of a screen.
func TrimBlankTail(lines []string) []string {
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// ValidPrefix cuts s to at most n bytes on a rune boundary.
func ValidPrefix(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
