package screenwatch

import (
	"fmt"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// rows is n numbered rows from first.
func rows(first, n int) []string {
	r := make([]string, n)
	for i := range r {
		r[i] = fmt.Sprintf("line %d of some build output that fills a row", first+i)
	}
	return r
}

// BenchmarkCompare measures one comparison of two looks: the usual case,
// where the history's growth explains the scroll, and the search tmux's
// full history forces, at a screen's worth of rows and at the most a look
// holds.
func BenchmarkCompare(b *testing.B) {
	for _, n := range []int{48, maxLookback + 24} {
		prev := tmuxctl.ScreenGrab{Rows: rows(0, n), History: 100, Height: 24}
		hinted := tmuxctl.ScreenGrab{Rows: rows(5, n), History: 105, Height: 24}
		full := tmuxctl.ScreenGrab{Rows: rows(5, n), History: 90, Height: 24} // trimmed: no hint
		b.Run(fmt.Sprintf("rows=%d/history-says", n), func(b *testing.B) {
			for b.Loop() {
				Compare(prev, hinted)
			}
		})
		b.Run(fmt.Sprintf("rows=%d/search", n), func(b *testing.B) {
			for b.Loop() {
				Compare(prev, full)
			}
		})
	}
}
