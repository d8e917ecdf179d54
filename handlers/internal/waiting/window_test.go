package waiting

import (
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
)

// TestWindowTrim checks that a Window keeps at most WindowSize bytes,
// never starts inside a character, and accounts for every byte it let go.
func TestWindowTrim(t *testing.T) {
	var w Window
	w.Add([]byte("x\né"), 3)
	w.Add([]byte(strings.Repeat("a", WindowSize-1)), 0)
	w.Trim()
	// 4 + WindowSize-1 bytes: cutting 3 would split é, so 4 go, with one line.
	want := clip.Accounting{DroppedLines: 1, OmittedBytes: 4, MissedBytes: 3}
	if w.Cut != want || w.Off != 4 || len(w.Text) != WindowSize-1 {
		t.Errorf("trim: cut %+v, accOff %d, %d bytes kept; want %+v, 4, %d", w.Cut, w.Off, len(w.Text), want, WindowSize-1)
	}
}
