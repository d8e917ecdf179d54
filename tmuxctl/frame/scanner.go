package frame

import "bytes"

// A Scanner finds markers and shell marks in raw pane output, also when
// one is split across chunks.
type Scanner struct {
	held []byte // the start of a marker cut off at the end of the last chunk
}

// A Found is a marker found in a chunk, ending just before chunk[End].
type Found struct {
	Marker
	End int
}

// A sequence is one kind of OSC string the scanner reads.
type sequence struct {
	prefix string
	max    int  // longest accepted, prefix and terminator included
	st     bool // ST (ESC \) ends it as well as BEL
	parse  func(string) (Marker, bool)
}

var sequences = [...]sequence{
	{Prefix, MaxLen, false, Parse},
	{ShellPrefix, ShellMaxLen, true, ParseShell},
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
		i := bytes.IndexByte(data[from:], 0x1b)
		if i < 0 {
			return found
		}
		start := from + i
		rest := data[start:]
		seq, partial := which(rest)
		if seq == nil {
			if partial {
				m.held = append([]byte(nil), rest...)
				return found
			}
			from = start + 1
			continue
		}
		body, end, ok := terminated(rest, seq)
		switch {
		case ok:
			if mk, good := seq.parse(string(body)); good {
				found = append(found, Found{Marker: mk, End: max(start+end-held, 0)})
			}
			from = start + end
		case end < 0:
			// Unterminated so far, and short enough to wait for the rest.
			m.held = append([]byte(nil), rest...)
			return found
		default:
			// Abandoned (another escape, CAN or SUB) or too long.
			from = start + 1
		}
	}
}

// which returns the sequence whose prefix data starts with, or reports
// that data is too short to tell (it is the start of a prefix).
func which(data []byte) (seq *sequence, partial bool) {
	for k := range sequences {
		p := sequences[k].prefix
		if bytes.HasPrefix(data, []byte(p)) {
			return &sequences[k], false
		}
		if len(data) < len(p) && bytes.HasPrefix([]byte(p), data) {
			partial = true
		}
	}
	return nil, partial
}

// terminated finds the end of the sequence seq that data starts with: its
// body and the length of the whole, with ok. Without ok, end is -1 while
// the sequence may still end in data yet to come, else where it was given
// up.
func terminated(data []byte, seq *sequence) (body []byte, end int, ok bool) {
	limit := min(len(data), seq.max)
	for k := len(seq.prefix); k < limit; k++ {
		switch data[k] {
		case '\a':
			return data[len(seq.prefix):k], k + 1, true
		case 0x18, 0x1a: // CAN, SUB: the terminal abandons the string
			return nil, k, false
		case 0x1b:
			if k+1 == len(data) {
				if len(data) < seq.max {
					return nil, -1, false
				}
				return nil, k, false
			}
			if seq.st && data[k+1] == '\\' && k+2 <= seq.max {
				return data[len(seq.prefix):k], k + 2, true
			}
			return nil, k, false
		}
	}
	if len(data) < seq.max {
		return nil, -1, false
	}
	return nil, limit, false
}
