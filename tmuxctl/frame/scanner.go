package frame

import "bytes"

// A Scanner finds markers in raw pane output, also when one is split
// across chunks.
type Scanner struct {
	held []byte // the start of a marker cut off at the end of the last chunk
}

// A Found is a marker found in a chunk, ending just before chunk[End].
type Found struct {
	Marker
	End int
}

// Scan returns the markers that end in chunk, in order.
func (m *Scanner) Scan(chunk []byte) []Found {
	data := chunk
	held := len(m.held)
	if held > 0 {
		data = append(m.held, chunk...)
		m.held = nil
	}
	var found []Found
	from := 0
	for {
		i := bytes.Index(data[from:], []byte(Prefix))
		if i < 0 {
			// Keep a tail that may be the beginning of a prefix.
			for k := min(len(Prefix)-1, len(data)-from); k > 0; k-- {
				if bytes.HasPrefix([]byte(Prefix), data[len(data)-k:]) {
					m.held = append([]byte(nil), data[len(data)-k:]...)
					break
				}
			}
			return found
		}
		start := from + i
		j := bytes.IndexByte(data[start:], '\a')
		if j < 0 {
			if len(data)-start < MaxLen {
				m.held = append([]byte(nil), data[start:]...)
			}
			return found
		}
		end := start + j + 1
		if mk, ok := Parse(string(data[start+len(Prefix) : end-1])); ok && j < MaxLen {
			found = append(found, Found{Marker: mk, End: max(end-held, 0)})
		}
		from = end
	}
}
