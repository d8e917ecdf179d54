package tmuxctl

import (
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
