package framed

import (
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// AwaitExit waits, within w, for the exit marker of a program run_program
// started behind an acking gate with nonce (tmuxctl.NewGate), which its
// shell prints after everything the program printed. It reports false
// when the wait ended, or the stream died or failed, without one.
func (b *Book) AwaitExit(w *waiting.Wait, s *live.Stream, nonce string) (live.Exit, bool) {
	watch := w.Watch(b.hub, s.Pane())
	for {
		changed := s.Changed()
		if mk, ok := s.FindMarker(nonce, frame.Exit); ok {
			status, signal := tmuxctl.GatedExit(mk.Status)
			return live.Exit{Status: status, Signal: signal}, true
		}
		if dead, failure := s.State(); dead || failure != "" {
			return live.Exit{}, false
		}
		if !watch.Next(changed, waiting.Forever) {
			return live.Exit{}, false
		}
	}
}
