package tmuxctl

import (
	"crypto/rand"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
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
	rand.Read(b)
	return hex.EncodeToString(b)
}
