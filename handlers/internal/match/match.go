package match

import (
	"regexp"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
)

// A Matcher finds the first occurrence of any of a wait's patterns that
// ends after a given position and is not covered by discounted echo.
type Matcher struct {
	literals []string
	regexes  []*regexp.Regexp
}

// maxRegexSpan bounds how far back a regular-expression match may start
// before the newest output and still be found: each new chunk is searched
// together with this much of what came before it.
const maxRegexSpan = 64 << 10

// Limits on a wait's patterns: matching cost grows with their size (a
// 200 KB regular expression took seconds of CPU per chunk), and no real
// wait needs more.
const (
	maxPatterns      = 64
	maxPatternsBytes = 16 << 10
)

func New(patterns []string, regex bool) (*Matcher, error) {
	if len(patterns) > maxPatterns {
		return nil, wording.TooManyPatterns(len(patterns), maxPatterns)
	}
	total := 0
	for _, p := range patterns {
		total += len(p)
	}
	if total > maxPatternsBytes {
		return nil, wording.PatternsTooBig(total, maxPatternsBytes)
	}
	m := &Matcher{}
	for i, p := range patterns {
		if !regex {
			m.literals = append(m.literals, p)
			continue
		}
		re, err := regexp.Compile("(?m)" + p)
		if err != nil {
			return nil, wording.BadPattern(i, p, err)
		}
		m.regexes = append(m.regexes, re)
	}
	return m, nil
}

func (m *Matcher) Empty() bool { return len(m.literals) == 0 && len(m.regexes) == 0 }

// overlap is how many bytes before new output a match may start.
func (m *Matcher) overlap() int {
	if len(m.regexes) > 0 {
		return maxRegexSpan
	}
	n := 0
	for _, l := range m.literals {
		n = max(n, len(l)-1)
	}
	return n
}

// Find returns the earliest match in text that ends after newFrom and is
// not inside one of the echoed spans.
func (m *Matcher) Find(text string, newFrom int, echoed [][2]int) (start, end int, ok bool) {
	from := max(0, newFrom-m.overlap())
	best := -1
	consider := func(s, e int) {
		if e > newFrom && !echo.Covered(echoed, s, e) && (best < 0 || s < best || s == best && e < end) {
			best, start, end = s, s, e
		}
	}
	for _, l := range m.literals {
		for at := from; at <= len(text); {
			i := strings.Index(text[at:], l)
			if i < 0 {
				break
			}
			s := at + i
			consider(s, s+len(l))
			if best >= 0 && best <= s {
				break
			}
			at = s + 1
		}
	}
	for _, re := range m.regexes {
		for _, loc := range re.FindAllStringIndex(text[from:], -1) {
			s, e := from+loc[0], from+loc[1]
			if s == e {
				continue // an empty match is no evidence of output
			}
			consider(s, e)
		}
	}
	return start, end, best >= 0
}

// OnScreen reports whether any pattern occurs in screen outside echo.
func (m *Matcher) OnScreen(screen string, echoed [][2]int) bool {
	_, _, ok := m.Find(screen, 0, echoed)
	return ok
}
