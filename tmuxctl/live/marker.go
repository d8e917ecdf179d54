package live

import (
	"bytes"
	"strconv"
	"strings"
)

// Framed commands (run_shell_command) print markers around their output:
// an OSC 7777 string, which terminals and tmux ignore and the escape
// filter removes from the text, so the markers are invisible on screen and
// in the stream while the stream still knows where they were.
//
//	ESC ] 7777 ; tmux-mcp ; <nonce> ; <kind> [; <status>] BEL
const (
	markerPrefix = "\x1b]7777;tmux-mcp;"
	maxMarker    = 128 // longest marker accepted, prefix included
)

// A Marker is one frame marker found in a stream.
type Marker struct {
	Nonce  string
	Kind   string // "start" or "end" (framed commands), "exit" (an acked program)
	Status int    // for "end" and "exit": the exit status
	Offset int64  // stream offset where it stood: text before it ends here
}

// A markerScanner finds markers in raw pane output, also when one is split
// across chunks.
type markerScanner struct {
	held []byte // the start of a marker cut off at the end of the last chunk
}

// A rawMarker is a marker found in a chunk, ending just before chunk[end].
type rawMarker struct {
	Marker
	end int
}

// scan returns the markers that end in chunk, in order.
func (m *markerScanner) scan(chunk []byte) []rawMarker {
	data := chunk
	held := len(m.held)
	if held > 0 {
		data = append(m.held, chunk...)
		m.held = nil
	}
	var found []rawMarker
	from := 0
	for {
		i := bytes.Index(data[from:], []byte(markerPrefix))
		if i < 0 {
			// Keep a tail that may be the beginning of a prefix.
			for k := min(len(markerPrefix)-1, len(data)-from); k > 0; k-- {
				if bytes.HasPrefix([]byte(markerPrefix), data[len(data)-k:]) {
					m.held = append([]byte(nil), data[len(data)-k:]...)
					break
				}
			}
			return found
		}
		start := from + i
		j := bytes.IndexByte(data[start:], '\a')
		if j < 0 {
			if len(data)-start < maxMarker {
				m.held = append([]byte(nil), data[start:]...)
			}
			return found
		}
		end := start + j + 1
		if mk, ok := parseMarker(string(data[start+len(markerPrefix) : end-1])); ok && j < maxMarker {
			found = append(found, rawMarker{Marker: mk, end: max(end-held, 0)})
		}
		from = end
	}
}

func parseMarker(body string) (Marker, bool) {
	f := strings.Split(body, ";")
	if len(f) < 2 {
		return Marker{}, false
	}
	m := Marker{Nonce: f[0], Kind: f[1]}
	if m.Kind == "end" || m.Kind == "exit" {
		if len(f) != 3 {
			return Marker{}, false
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return Marker{}, false
		}
		m.Status = n
	}
	return m, true
}

// FindMarker returns the marker of kind for nonce, if the stream has seen it.
func (s *Stream) FindMarker(nonce, kind string) (Marker, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.markers {
		if m.Nonce == nonce && m.Kind == kind {
			return m, true
		}
	}
	return Marker{}, false
}
