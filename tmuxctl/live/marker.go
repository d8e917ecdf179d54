package live

import "github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"

// Framed commands (run_shell_command) and acked programs print markers
// (package frame) that the stream removes from the text and keeps, with
// the offset where each stood, for FindMarker.

// FindMarker returns the marker of kind for nonce, if the stream has seen it.
func (s *Stream) FindMarker(nonce string, kind frame.Kind) (frame.Marker, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.markers {
		if m.Nonce == nonce && m.Kind == kind {
			return m, true
		}
	}
	return frame.Marker{}, false
}
