package screenwatch

import (
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A FreshRow is a row of a grab that was not on the pane in the grab
// before it: a new row, or a row whose text changed.
type FreshRow struct {
	Row  int // index into the grab's Rows
	From int // the first byte that differs from the row it replaced (0: all of it)
}

// A Change is how a pane moved from one grab to the next.
type Change struct {
	Shift int        // rows the old content moved up (negative: down, as when a line wrapped and joined)
	Fresh []FreshRow // in row order
	Lost  int        // rows that scrolled past between the grabs unseen (a lower bound)
}

// mismatchesTrusted is how many differing rows the shift tmux's history
// size suggests may have and still be taken without a search: a prompt
// line being edited and a line being written, and a little more.
const mismatchesTrusted = 3

// Compare works out what is new in cur since prev. Rows are aligned from
// the bottom: content that scrolls moves up by the rows printed, which
// the growth of tmux's history normally says exactly. When it cannot (the
// history is full and tmux dropped its oldest rows, was cleared, or a
// full-screen program switched screens) or the rows disagree with it, the
// shift is the one under which most non-blank rows are equal. A row is
// fresh when the row it aligns with differs, or when it has none (it is
// below the old bottom); a row that came from history above what prev
// held is old. When no alignment keeps any row (everything scrolled past
// or was redrawn), every non-blank row is fresh.
func Compare(prev, cur tmuxctl.ScreenGrab) Change {
	hint, hintOK := cur.History-prev.History, prev.Alternate == cur.Alternate && cur.History >= prev.History
	shift, kept := align(prev.Rows, cur.Rows, hint, hintOK)
	var c Change
	if !kept {
		for j, r := range cur.Rows {
			if r != "" {
				c.Fresh = append(c.Fresh, FreshRow{Row: j})
			}
		}
		c.Shift = len(prev.Rows)
		return c
	}
	c.Shift = shift
	// Every row printed below the old bottom moved the content up one;
	// those beyond what cur holds were never seen.
	c.Lost = max(0, shift-len(cur.Rows))
	for j, r := range cur.Rows {
		i := oldIndex(len(prev.Rows), len(cur.Rows), j, shift)
		switch {
		case i >= len(prev.Rows):
			if r != "" {
				c.Fresh = append(c.Fresh, FreshRow{Row: j})
			}
		case i >= 0 && r != prev.Rows[i]:
			// A row that only lost text (blanked, shortened) shows
			// nothing new.
			if from := commonPrefix(prev.Rows[i], r); from < len(r) {
				c.Fresh = append(c.Fresh, FreshRow{Row: j, From: from})
			}
		}
	}
	return c
}

// oldIndex is the index in an old grab of n rows of the row that row j
// of a new grab of m rows aligns with under shift (out of range: none).
func oldIndex(n, m, j, shift int) int {
	dist := m - 1 - j // from the bottom
	return n - 1 - (dist - shift)
}

// align finds the shift that best lines prev up with cur, and whether any
// non-blank row stays equal under it.
func align(prev, cur []string, hint int, hintOK bool) (shift int, kept bool) {
	if len(prev) == 0 || len(cur) == 0 {
		return 0, false
	}
	hintNe := 0
	if hintOK {
		eq, ne := score(prev, cur, hint)
		if eq > 0 && ne <= mismatchesTrusted {
			return hint, true
		}
		hintNe = ne
	}
	bestEq, bestNe := 0, 0
	consider := func(s int) {
		eq, ne := score(prev, cur, s)
		better := eq > bestEq || eq == bestEq && ne < bestNe
		if eq > 0 && (better || eq == bestEq && ne == bestNe && closer(s, shift, hint, hintOK)) {
			shift, bestEq, bestNe, kept = s, eq, ne, true
		}
	}
	if hintOK {
		consider(hint)
	}
	for _, s := range candidates(prev, cur) {
		consider(s)
	}
	if !kept && hintOK && hintNe <= mismatchesTrusted {
		// No non-blank row to hold on to (a screen of one changing line,
		// or all of it scrolled past): the history is all there is.
		return hint, true
	}
	return shift, kept
}

// Bounds on the search for a shift: only shifts that line one of the
// newest old rows up with an equal new row can keep anything, so those
// are the candidates: a look of 2000 rows that the history cannot explain
// then costs about a millisecond instead of eighty (BenchmarkCompare).
const (
	anchorRows    = 16 // the newest non-blank old rows that are tried
	maxCandidates = 64
)

// candidates are the shifts under which one of the newest non-blank rows
// of prev lines up with an equal row of cur, at most maxCandidates.
func candidates(prev, cur []string) []int {
	at := make(map[string][]int)
	for j, r := range cur {
		if r != "" {
			at[r] = append(at[r], j)
		}
	}
	seen := make(map[int]bool)
	var out []int
	anchors := 0
	for i := len(prev) - 1; i >= 0 && anchors < anchorRows && len(out) < maxCandidates; i-- {
		if prev[i] == "" {
			continue
		}
		anchors++
		js := at[prev[i]]
		// From the bottom of cur up, where the newest rows are.
		for k := len(js) - 1; k >= 0 && len(out) < maxCandidates; k-- {
			s := (len(cur) - 1 - js[k]) - (len(prev) - 1 - i)
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// closer breaks a tie between shifts: the one the history suggests, else
// the smaller move.
func closer(s, best, hint int, hintOK bool) bool {
	if hintOK && best == hint {
		return false
	}
	if hintOK && s == hint {
		return true
	}
	return abs(s) < abs(best)
}

// score counts, under shift s, the aligned row pairs that are equal and
// not blank, and those that differ.
func score(prev, cur []string, s int) (equal, differ int) {
	for j, r := range cur {
		i := oldIndex(len(prev), len(cur), j, s)
		if i < 0 || i >= len(prev) {
			continue
		}
		switch {
		case r == prev[i] && r != "":
			equal++
		case r != prev[i]:
			differ++
		}
	}
	return equal, differ
}

// commonPrefix is how many leading bytes a and b share, backed off to a
// character boundary of b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
