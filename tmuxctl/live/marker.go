package live

import "github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"

// Framed commands (run_shell_command) and acked programs print markers
// (package frame) that the stream removes from the text and keeps, with
// the offset where each stood, for FindMarker and Markers.

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

// Markers returns the markers for nonce the stream has seen, oldest first,
// in one look: a marker is never returned without those printed before it
// (while they are among the stream's most recent). Two calls of FindMarker
// give no such promise: a start and an end that arrive together, between
// the look for the start and the look for the end, show the end alone.
func (s *Stream) Markers(nonce string) []frame.Marker {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []frame.Marker
	for _, m := range s.markers {
		if m.Nonce == nonce {
			found = append(found, m)
		}
	}
	return found
}
