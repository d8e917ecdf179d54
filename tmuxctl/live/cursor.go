package live

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A cursor names a position in one pane stream: "ltxc1." then the stream's
// generation as 32 lower-case hex digits, ".", and a byte offset in decimal
// with no sign or leading zero (SEED-CONTRACT rule 2). The generation is
// random per stream, so a cursor kept past a restart of this server, or one
// from another pane's stream, is recognised as foreign.
const cursorPrefix = "ltxc1."

// errBadCursor is wrapped by every error of parseCursor.
var errBadCursor = errors.New("malformed cursor")

// ErrCursorBeyond is wrapped by the error of [ParseCursor] for a cursor
// that is well formed (it matches the seed schemas' pattern) but whose
// offset does not fit in 64 bits: no stream has come that far.
var ErrCursorBeyond = errors.New("cursor offset beyond any stream")

// A beyond is the error of a well-formed cursor whose offset is too large.
type beyond struct{ err error }

func (b beyond) Error() string        { return b.err.Error() }
func (b beyond) Unwrap() error        { return b.err }
func (b beyond) Is(target error) bool { return target == ErrCursorBeyond }

// formatCursor returns the cursor for offset off of the stream with
// generation gen. It panics if off is negative: no stream has such an
// offset, and the cursor would not match the advertised pattern.
func formatCursor(gen [16]byte, off int64) string {
	if off < 0 {
		panic(fmt.Sprintf("tmuxctl: cursor offset %d is negative", off))
	}
	b := make([]byte, 0, len(cursorPrefix)+32+1+19)
	b = append(b, cursorPrefix...)
	b = hex.AppendEncode(b, gen[:])
	b = append(b, '.')
	b = strconv.AppendInt(b, off, 10)
	return string(b)
}

// parseCursor splits a cursor made by formatCursor. It accepts exactly the
// strings matching ^ltxc1\.[0-9a-f]{32}\.(?:0|[1-9][0-9]*)$ whose offset
// fits in an int64; the error wraps errBadCursor and says what is wrong.
func parseCursor(s string) (gen [16]byte, off int64, err error) {
	fail := func(why string) ([16]byte, int64, error) {
		return [16]byte{}, 0, fmt.Errorf("%w %q: %s", errBadCursor, s, why)
	}
	rest, ok := strings.CutPrefix(s, cursorPrefix)
	if !ok {
		return fail(`does not start with "` + cursorPrefix + `"`)
	}
	if len(rest) < 33 || rest[32] != '.' {
		return fail("the generation is not 32 hex digits followed by '.'")
	}
	for i := range 32 {
		c := rest[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return fail("the generation is not 32 lower-case hex digits")
		}
	}
	// Checked above, so this cannot fail.
	hex.Decode(gen[:], []byte(rest[:32]))
	digits := rest[33:]
	switch {
	case digits == "":
		return fail("no offset")
	case digits[0] == '0' && len(digits) > 1:
		return fail("the offset has a leading zero")
	}
	for i := range len(digits) {
		if digits[i] < '0' || digits[i] > '9' {
			return fail("the offset is not a decimal number")
		}
	}
	off, err = strconv.ParseInt(digits, 10, 64)
	if err != nil {
		_, _, err = fail("the offset is too large")
		return [16]byte{}, 0, beyond{err}
	}
	return gen, off, nil
}
