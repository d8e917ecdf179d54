package waiting

import (
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
)

// WindowSize is how much recent text a wait keeps to match across
// notifications and to build its output from.
const WindowSize = 256 << 10

// A Window is the recent text a wait has read, which it matches in and
// builds its output from, and the accounting of what the stream missed
// and what the window let go from its front.
type Window struct {
	Text []byte // recent text; Text[0] is at stream offset Off
	Off  int64
	Cut  clip.Accounting
}

// Add appends text read from the stream after missed bytes it lost.
func (w *Window) Add(text []byte, missed int64) {
	w.Text = append(w.Text, text...)
	w.Cut = w.Cut.Missing(missed)
}

// Trim keeps Text within WindowSize, counting what it drops.
func (w *Window) Trim() {
	if len(w.Text) > WindowSize {
		w.Drop(len(w.Text) - WindowSize)
	}
}

// Drop removes n bytes from Text's front (more, up to the next character,
// so Text never starts inside one), counting them as omitted: read, but not
// returned.
func (w *Window) Drop(n int) {
	for n < len(w.Text) && !utf8.RuneStart(w.Text[n]) {
		n++
	}
	for _, b := range w.Text[:n] {
		if b == '\n' {
			w.Cut.DroppedLines++
		}
	}
	w.Text = append(w.Text[:0], w.Text[n:]...)
	w.Off += int64(n)
	w.Cut.OmittedBytes += n
}
