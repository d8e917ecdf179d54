package tmuxctl

import (
	"crypto/rand"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
	"time"
)

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// ShellQuote quotes s as one word for sh, and for fish (which reads '\”
// the same way) as long as s holds no backslash.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Nonce returns 2n random hex digits: for channel names, markers and
// separators that no program in a pane can predict.
func Nonce(n int) string {
	b := make([]byte, n)
	NonceBytes(b)
	return hex.EncodeToString(b)
}

// NonceBytes fills b with random bytes, for ids kept in binary (a stream's
// generation). It is the one source of unpredictable values in the server.
func NonceBytes(b []byte) {
	rand.Read(b)
}

// cleanupTimeout bounds the clean-up of an operation that failed part way
// (a private buffer, a pane made before an error): it runs on its own
// clock, since the caller's context may be what failed.
const cleanupTimeout = 5 * time.Second
