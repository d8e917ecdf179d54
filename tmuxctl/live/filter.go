package live

// An escapeFilter turns what a program writes to its terminal into the text
// a person would search for: terminal escape sequences and control bytes are
// removed, "\r\n" becomes "\n", and everything else is kept byte for byte.
//
// It recognises sequences the way tmux 3.3a's own input parser (input.c,
// after Paul Williams' DEC parser) does, so that text the screen would not
// show is not in the stream either:
//
//   - CSI: ESC [ parameters and intermediates (0x20-0x3f, private markers
//     "<=>?" included) up to a final byte 0x40-0x7e.
//   - OSC: ESC ] … ended by BEL or by ST (ESC \).
//   - DCS: ESC P …, whose data may hold any byte, ESC included; only ESC \
//     ends it.
//   - SOS (ESC X), PM (ESC ^), APC (ESC _) and screen's title string (ESC k),
//     ended by ST.
//   - Other escapes: ESC, any intermediates 0x20-0x2f, then one final byte
//     0x30-0x7e (ESC 7, ESC =, ESC ( B, ESC # 8, …).
//
// Inside any of these, ESC starts a new sequence and CAN (0x18) or SUB
// (0x1a) abandons the sequence, as in tmux — except in DCS data, which tmux
// passes through until ESC \. Inside escape and CSI sequences a control byte
// takes effect at once (a "\n" there is still a line break), as on a real
// terminal; inside strings and a DCS's header it is ignored. Inside every
// sequence, bytes 0x7f-0xff are ignored too, as tmux does (so "ESC é" loses
// the "é" on screen as well as here).
//
// Outside sequences:
//
//   - "\n" and "\t" are kept. VT and FF become "\n": terminals, tmux
//     included, move down a line for them as for "\n".
//   - "\r" is dropped. That turns "\r\n" into "\n" (and tmux's "\r\r\n",
//     seen when a program prints "\r\n" through the tty's onlcr, into "\n"),
//     needs no look-ahead across writes, and makes a lone "\r" — a progress
//     bar or a shell redrawing its line — join the old and new text rather
//     than invent a line break. Exact screen contents are capture-pane's job.
//   - Every other C0 byte (NUL, BEL, backspace, …) and DEL are dropped.
//     Backspace is not applied: "ab\bc" reads "abc", because undoing text
//     already handed on is not possible in a stream. The hub relies on NUL
//     never getting through.
//   - Bytes 0x80-0xff are kept as they are: they are UTF-8 (or not UTF-8 at
//     all); checking that is left to the caller.
//
// 8-bit C1 controls are not recognised. A raw 0x9b is the 8-bit CSI in
// ISO 6429, but in UTF-8 it is a continuation byte ("⌛" is e2 8c 9b), and
// taking it for CSI would eat the text after it. tmux is 7-bit only as well:
// a stray 0x9b is to it invalid UTF-8, never a CSI.
//
// A sequence split across calls to [escapeFilter.Write] is handled the same
// as one written whole: the filter keeps its place between calls. The zero
// value is ready to use. An escapeFilter is not safe for concurrent use.
type escapeFilter struct {
	state filterState
}

// A filterState is where the filter is in an escape sequence. The states
// follow tmux's input.c, merged where tmux's differences do not change which
// bytes are text.
type filterState uint8

const (
	inText     filterState = iota // ground
	inEsc                         // after ESC
	inEscInter                    // ESC and intermediates, before the final byte
	inCSI                         // ESC [ until a final byte
	inDCSEnter                    // ESC P, nothing more yet
	inDCSParam                    // DCS parameters
	inDCSInter                    // DCS intermediates
	inDCSData                     // DCS data, until ESC \
	inDCSEsc                      // ESC inside DCS data
	inOSC                         // ESC ] until BEL, ESC, CAN or SUB
	inIgnore                      // SOS, PM, APC, ESC k, or a DCS tmux ignores: until ESC, CAN or SUB
)

const (
	esc = 0x1b
	can = 0x18
	sub = 0x1a
	bel = 0x07
	del = 0x7f
)

// Write appends to dst the text of src and returns the extended slice.
// It allocates only if dst must grow; the output is never longer than src.
func (f *escapeFilter) Write(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		// Fast paths for the long runs: printable text, CSI parameters, and
		// string contents (a clipboard OSC or an image DCS can be large).
		j := i
		switch f.state {
		case inText:
			for j < len(src) && src[j] >= 0x20 && src[j] != del {
				j++
			}
			dst = append(dst, src[i:j]...)
		case inCSI:
			for j < len(src) && src[j] >= 0x20 && src[j] < 0x40 {
				j++
			}
		case inOSC, inIgnore:
			for j < len(src) && src[j] >= 0x20 {
				j++
			}
		case inDCSData:
			for j < len(src) && src[j] != esc {
				j++
			}
		}
		if j == len(src) {
			break
		}
		dst = f.step(dst, src[j])
		i = j + 1
	}
	return dst
}

// Reset forgets any sequence in progress. Call it when output was lost (a
// %pause gap), so a sequence cut by the gap does not swallow the text after
// it.
func (f *escapeFilter) Reset() { f.state = inText }

// step feeds one byte that is not a printable byte outside a sequence.
func (f *escapeFilter) step(dst []byte, b byte) []byte {
	switch f.state {
	case inDCSData:
		if b == esc {
			f.state = inDCSEsc
		}
		return dst
	case inDCSEsc:
		// Only ESC \ ends DCS data; tmux passes any other ESC through (for
		// its own passthrough sequences), so the data goes on.
		if b == '\\' {
			f.state = inText
		} else {
			f.state = inDCSData
		}
		return dst
	}

	// What tmux does in every other state.
	switch b {
	case esc:
		f.state = inEsc
		return dst
	case can, sub:
		f.state = inText
		return dst
	}

	switch f.state {
	case inText:
		return control(dst, b)
	case inEsc:
		switch {
		case b < 0x20:
			return control(dst, b)
		case b < 0x30:
			f.state = inEscInter
		case b == '[':
			f.state = inCSI
		case b == ']':
			f.state = inOSC
		case b == 'P':
			f.state = inDCSEnter
		case b == 'X', b == '^', b == '_', b == 'k':
			f.state = inIgnore
		case b < del:
			f.state = inText
		}
	case inEscInter:
		switch {
		case b < 0x20:
			return control(dst, b)
		case b >= 0x30 && b < del:
			f.state = inText
		}
	case inCSI:
		switch {
		case b < 0x20:
			return control(dst, b)
		case b >= 0x40 && b < del:
			f.state = inText
		}
	case inDCSEnter, inDCSParam, inDCSInter:
		// Control bytes are ignored here (not acted on, unlike CSI), and some
		// misplaced bytes make tmux ignore the whole string.
		switch {
		case b < 0x20 || b >= del:
		case b >= 0x40:
			f.state = inDCSData
		case b < 0x30:
			f.state = inDCSInter
		case f.state == inDCSInter || b == ':' || (f.state == inDCSParam && b >= 0x3c):
			f.state = inIgnore
		default:
			f.state = inDCSParam
		}
	case inOSC:
		if b == bel {
			f.state = inText
		}
	}
	return dst
}

// control applies a C0 control or DEL met outside strings: line breaks and
// tabs are text, the rest is dropped.
func control(dst []byte, b byte) []byte {
	switch b {
	case '\n', '\v', '\f':
		return append(dst, '\n')
	case '\t':
		return append(dst, '\t')
	}
	return dst
}
