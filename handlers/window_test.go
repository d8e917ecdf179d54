package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"strings"
	"testing"
)

// TestWindowTrim checks that a window keeps at most waitWindow bytes,
// never starts inside a character, and accounts for every byte it let go.
func TestWindowTrim(t *testing.T) {
	var w window
	w.add([]byte("x\né"), 3)
	w.add([]byte(strings.Repeat("a", waitWindow-1)), 0)
	w.trim()
	// 4 + waitWindow-1 bytes: cutting 3 would split é, so 4 go, with one line.
	want := clip.Accounting{DroppedLines: 1, OmittedBytes: 4, MissedBytes: 3}
	if w.cut != want || w.accOff != 4 || len(w.acc) != waitWindow-1 {
		t.Errorf("trim: cut %+v, accOff %d, %d bytes kept; want %+v, 4, %d", w.cut, w.accOff, len(w.acc), want, waitWindow-1)
	}
}
