package handlers

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// echoWindow is how long text this server submitted to a pane is
// discounted by waits: a program echoes a command line back as it is
// typed and again as it is submitted, and neither is output the agent
// waits for.
const echoWindow = 10 * time.Second

// An echoBook remembers, per pane of one tmux server, the text this server
// typed there: the line still being typed, and lines submitted within
// [echoWindow]. Waits ignore standalone occurrences of that text, so a
// command cannot match its own echo. It is safe for concurrent use.
type echoBook struct {
	mu    sync.Mutex
	now   func() time.Time
	panes map[echoKey]*paneEcho
}

// An echoKey names a pane of a particular tmux server: pane ids restart
// with the server, so the pane's pid is part of the key.
type echoKey struct {
	pane string
	pid  int
}

type paneEcho struct {
	line      []rune      // typed, not yet submitted
	submitted []echoEntry // newest last
}

type echoEntry struct {
	text string
	at   time.Time
}

func newEchoBook() *echoBook {
	return &echoBook{now: time.Now, panes: map[echoKey]*paneEcho{}}
}

// keyKind is how the echo model reads one send_keys key.
type keyKind int

const (
	keyText    keyKind = iota // typed as text
	keySubmit                 // Enter, C-m, C-j
	keyKill                   // C-c, C-u: the line is abandoned
	keyErase                  // BSpace, C-h: one character erased
	keyUnknown                // anything else: the echo can no longer be predicted
)

// namedKey matches what tmux reads as a key name rather than text:
// modifier prefixes and the names in tmux's key table.
var namedKey = regexp.MustCompile(`^(?:(?:[CMS]-)+.+|\^.|F(?:[1-9]|1[0-2])|Up|Down|Left|Right|Home|End|` +
	`NPage|PageDown|PgDn|PPage|PageUp|PgUp|IC|Insert|DC|Delete|BTab|Tab|Escape|Space|BSpace|Enter|KP.+)$`)

// classifyKey reads a send_keys argument the way tmux will.
func classifyKey(keys string, literal bool) keyKind {
	if literal || !namedKey.MatchString(keys) {
		return keyText
	}
	switch keys {
	case "Enter", "C-m", "C-j", "^M", "^J":
		return keySubmit
	case "C-c", "C-u", "^C", "^U":
		return keyKill
	case "BSpace", "C-h", "^H":
		return keyErase
	case "Space":
		return keyText
	}
	return keyUnknown
}

// typed records what send_keys sent to a pane: keys (read per classifyKey),
// then Enter if enter.
func (b *echoBook) typed(pane string, pid int, keys string, literal, enter bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := echoKey{pane, pid}
	pe := b.panes[k]
	if pe == nil {
		pe = &paneEcho{}
		b.panes[k] = pe
	}
	now := b.now()
	pe.prune(now)
	switch classifyKey(keys, literal) {
	case keyText:
		if keys == "Space" && !literal {
			keys = " "
		}
		// A newline typed as text submits the line, as Enter does.
		parts := strings.Split(keys, "\n")
		for i, part := range parts {
			pe.line = append(pe.line, []rune(part)...)
			if i < len(parts)-1 {
				pe.submit(now)
			}
		}
	case keySubmit:
		pe.submit(now)
	case keyKill, keyUnknown:
		pe.line = nil
	case keyErase:
		if n := len(pe.line); n > 0 {
			pe.line = pe.line[:n-1]
		}
	}
	if enter {
		pe.submit(now)
	}
	if len(pe.line) == 0 && len(pe.submitted) == 0 {
		delete(b.panes, k)
	}
}

func (pe *paneEcho) submit(now time.Time) {
	if len(pe.line) > 0 {
		pe.submitted = append(pe.submitted, echoEntry{text: string(pe.line), at: now})
		if len(pe.submitted) > 32 {
			pe.submitted = pe.submitted[1:]
		}
	}
	pe.line = nil
}

func (pe *paneEcho) prune(now time.Time) {
	i := 0
	for i < len(pe.submitted) && now.Sub(pe.submitted[i].at) > echoWindow {
		i++
	}
	pe.submitted = pe.submitted[i:]
}

// active returns the texts whose echo a wait on pane must discount now.
func (b *echoBook) active(pane string, pid int) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	pe := b.panes[echoKey{pane, pid}]
	if pe == nil {
		return nil
	}
	pe.prune(b.now())
	var texts []string
	for _, e := range pe.submitted {
		texts = append(texts, e.text)
	}
	if len(pe.line) > 0 {
		texts = append(texts, string(pe.line))
	}
	return texts
}

// echoSpans returns the byte ranges of text that are standalone
// occurrences of any of echoes: not preceded or followed by a letter,
// digit or underscore, so typing "y" does not hide the "y" of "ready".
func echoSpans(text string, echoes []string) [][2]int {
	var spans [][2]int
	for _, e := range echoes {
		if strings.TrimSpace(e) == "" {
			continue
		}
		for from := 0; from < len(text); {
			i := strings.Index(text[from:], e)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(e)
			if standalone(text, start, end) {
				spans = append(spans, [2]int{start, end})
			}
			from = start + 1
		}
	}
	return spans
}

func standalone(text string, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:start])
		if isWord(r) {
			return false
		}
	}
	if end < len(text) {
		r, _ := utf8.DecodeRuneInString(text[end:])
		if isWord(r) {
			return false
		}
	}
	return true
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// covered reports whether [start, end) lies inside one of spans.
func covered(spans [][2]int, start, end int) bool {
	for _, s := range spans {
		if s[0] <= start && end <= s[1] {
			return true
		}
	}
	return false
}
