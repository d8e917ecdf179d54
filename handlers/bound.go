package handlers

import (
	"strings"
	"unicode/utf8"
)

// An accounting says what bounding a result's text cut and what it kept,
// in the fields every tool returning pane or stream text reports. The
// bounding functions below produce it; accounting.go copies it into each
// output type.
type accounting struct {
	DroppedLines  int  // whole lines removed from the front by the line limit
	OmittedBytes  int  // bytes removed from the front (see each bounding function)
	MissedBytes   int  // bytes the stream lost before they could be read
	ReturnedBytes int  // bytes of text returned
	ByteClamped   bool // whether the byte limit cut the text
}

// then is the accounting of text bounded by a and then by b (a wait's
// window, then a call's limits): b's cuts add to a's, and what b kept is
// what is returned.
func (a accounting) then(b accounting) accounting {
	return accounting{
		DroppedLines:  a.DroppedLines + b.DroppedLines,
		OmittedBytes:  a.OmittedBytes + b.OmittedBytes,
		MissedBytes:   a.MissedBytes + b.MissedBytes,
		ReturnedBytes: b.ReturnedBytes,
		ByteClamped:   a.ByteClamped || b.ByteClamped,
	}
}

// missing adds n bytes that a stream lost before they could be read.
func (a accounting) missing(n int64) accounting {
	a.MissedBytes += int(n)
	return a
}

// A tail is text cut to the line and byte limits, newest kept, and what
// the cut cost.
type tail struct {
	Text string
	accounting
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

// keepStreamTail keeps the newest maxLines lines of text, then the newest
// maxBytes bytes of those. Unlike keepTail it counts dropped lines' bytes
// as omitted (every byte removed from the front, by either limit), so that
// for stream reads newCursor − start = missedBytes + omittedBytes +
// returnedBytes. A final newline ends the last line rather than starting a
// new one.
func keepStreamTail(text []byte, maxLines, maxBytes int) tail {
	var t tail
	cut := 0
	body := text
	if len(body) > 0 && body[len(body)-1] == '\n' {
		body = body[:len(body)-1]
	}
	lines := 0
	for i := len(body) - 1; i >= 0; i-- {
		if body[i] == '\n' {
			lines++
			if lines >= maxLines {
				cut = i + 1
				break
			}
		}
	}
	if cut > 0 {
		for _, b := range text[:cut] {
			if b == '\n' {
				t.DroppedLines++
			}
		}
	}
	kept, clamped := cutFront(string(text[cut:]), maxBytes)
	t.Text, t.ReturnedBytes = kept, len(kept)
	t.ByteClamped = clamped > 0
	t.OmittedBytes = cut + clamped
	return t
}
