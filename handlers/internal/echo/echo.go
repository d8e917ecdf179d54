package echo

import (
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// Window is how long text this server submitted to a pane is
// discounted by waits: a program echoes a command line back as it is
// Typed and again as it is submitted, and neither is output the agent
// waits for.
const Window = 10 * time.Second

// An Book remembers, per pane of one tmux server, the text this server
// Typed there: the line still being typed, and lines submitted within
// [Window]. Waits ignore standalone occurrences of that text, so a
// command cannot match its own echo. It is safe for concurrent use.
type Book struct {
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

func NewBook() *Book {
	return &Book{now: time.Now, panes: map[echoKey]*paneEcho{}}
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

// classifyParsed reads one key for the echo model; for a key that types a
// character (Space, 0x41) it also returns that character.
func classifyParsed(k tmuxctl.Key) (keyKind, rune) {
	plain := !k.Ctrl && !k.Meta && !k.Shift
	ctrlOnly := k.Ctrl && !k.Meta && !k.Shift
	switch {
	case plain && (k.Name == "Enter" || k.Name == "KPEnter" || k.Name == "" && (k.Char == '\r' || k.Char == '\n')):
		return keySubmit, 0
	case ctrlOnly && k.Name == "" && (k.Char == 'm' || k.Char == 'j'):
		return keySubmit, 0
	case ctrlOnly && k.Name == "" && (k.Char == 'c' || k.Char == 'u'),
		plain && k.Name == "" && (k.Char == 0x03 || k.Char == 0x15):
		return keyKill, 0
	case plain && (k.Name == "BSpace" || k.Name == "" && (k.Char == 0x08 || k.Char == 0x7f)),
		ctrlOnly && k.Name == "" && k.Char == 'h':
		return keyErase, 0
	case plain && k.Name == "Space":
		return keyText, ' '
	case plain && k.Name == "" && k.Char >= 0x20:
		return keyText, k.Char
	}
	return keyUnknown, 0
}

// Typed records what send_keys sent to a pane as a string: keys, as a
// key or as text (see StringItems), then Enter if enter.
func (b *Book) Typed(pane string, pid int, keys string, literal, enter bool) {
	b.TypedItems(pane, pid, StringItems(keys, literal, &enter))
}

// TypedItems records a sequence send_keys sent to a pane, in order.
func (b *Book) TypedItems(pane string, pid int, items []tmuxctl.KeyItem) {
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
	for _, it := range items {
		if it.Key == "" {
			// A newline typed as text submits the line, as Enter does.
			parts := strings.Split(it.Text, "\n")
			for i, part := range parts {
				pe.line = append(pe.line, []rune(part)...)
				if i < len(parts)-1 {
					pe.submit(now)
				}
			}
			continue
		}
		key, err := tmuxctl.ParseKey(it.Key)
		if err != nil {
			pe.line = nil
			continue
		}
		switch kind, r := classifyParsed(key); kind {
		case keyText:
			pe.line = append(pe.line, r)
		case keySubmit:
			pe.submit(now)
		case keyKill, keyUnknown:
			pe.line = nil
		case keyErase:
			if n := len(pe.line); n > 0 {
				pe.line = pe.line[:n-1]
			}
		}
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
	for i < len(pe.submitted) && now.Sub(pe.submitted[i].at) > Window {
		i++
	}
	pe.submitted = pe.submitted[i:]
}

// Active returns the texts whose echo a wait on pane must discount now.
func (b *Book) Active(pane string, pid int) []string {
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

// Spans returns the byte ranges of text that are standalone
// occurrences of any of echoes: not preceded or followed by a letter,
// digit or underscore, so typing "y" does not hide the "y" of "ready".
func Spans(text string, echoes []string) [][2]int {
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

// Covered reports whether [start, end) lies inside one of spans.
func Covered(spans [][2]int, start, end int) bool {
	for _, s := range spans {
		if s[0] <= start && end <= s[1] {
			return true
		}
	}
	return false
}

// StringItems is how send_keys sends a string: as one key when it names
// one (more than a lone character) and literal is off, otherwise as text.
// Enter follows text unless enter is false, and a key only when enter is
// true: C-c or C-d with an Enter after it would type a stray empty line.
func StringItems(keys string, literal bool, enter *bool) []tmuxctl.KeyItem {
	var items []tmuxctl.KeyItem
	named := false
	if k, err := tmuxctl.ParseKey(keys); err == nil && !literal && k.Named() {
		items = append(items, tmuxctl.KeyItem{Key: keys})
		named = true
	} else if keys != "" {
		items = append(items, tmuxctl.KeyItem{Text: keys})
	}
	if enter == nil && !named || enter != nil && *enter {
		items = append(items, tmuxctl.KeyItem{Key: "Enter"})
	}
	return items
}
