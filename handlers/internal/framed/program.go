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
// when the wait ended, or the stream died or failed, without one; with
// untilInput, also when the program waits for terminal input, which it
// then puts in asking (non-nil).
func (b *Book) AwaitExit(w *waiting.Wait, s *live.Stream, nonce string, untilInput bool) (exit live.Exit, marked bool, asking *Asking) {
	watch := w.Watch(b.hub, s.Pane())
	ask := b.asker(s, untilInput)
	for {
		changed := s.Changed()
		if mk, ok := s.FindMarker(nonce, frame.Exit); ok {
			status, signal := tmuxctl.GatedExit(mk.Status)
			return live.Exit{Status: status, Signal: signal}, true, nil
		}
		if dead, failure := s.State(); dead || failure != "" {
			return live.Exit{}, false, nil
		}
		// The gate's shell waits on a FIFO until the program runs, and
		// after it ended: neither looks like a wait for the terminal.
		if a, ok := ask.asks(w.Ctx); ok {
			if _, ended := s.FindMarker(nonce, frame.Exit); !ended {
				return live.Exit{}, false, &a
			}
			continue
		}
		if !watch.Next(changed, ask.left()) {
			return live.Exit{}, false, nil
		}
	}
}
