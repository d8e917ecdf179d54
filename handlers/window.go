package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"unicode/utf8"
)

// waitWindow is how much recent text a wait keeps to match across
// notifications and to build its output from.
const waitWindow = 256 << 10

// A window is the recent text a wait has read, which it matches in and
// builds its output from, and the clip.Accounting of what the stream missed
// and what the window let go from its front.
type window struct {
	acc    []byte // recent text; acc[0] is at stream offset accOff
	accOff int64
	cut    clip.Accounting
}

// add appends text read from the stream after missed bytes it lost.
func (w *window) add(text []byte, missed int64) {
	w.acc = append(w.acc, text...)
	w.cut = w.cut.Missing(missed)
}

// trim keeps acc within waitWindow, counting what it drops.
func (w *window) trim() {
	if len(w.acc) > waitWindow {
		w.drop(len(w.acc) - waitWindow)
	}
}

// drop removes n bytes from acc's front (more, up to the next character,
// so acc never starts inside one), counting them as omitted: read, but not
// returned.
func (w *window) drop(n int) {
	for n < len(w.acc) && !utf8.RuneStart(w.acc[n]) {
		n++
	}
	for _, b := range w.acc[:n] {
		if b == '\n' {
			w.cut.DroppedLines++
		}
	}
	w.acc = append(w.acc[:0], w.acc[n:]...)
	w.accOff += int64(n)
	w.cut.OmittedBytes += n
}
