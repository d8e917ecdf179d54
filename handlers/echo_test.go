package handlers

import (
	"slices"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestEchoBook(t *testing.T) {
	now := time.Unix(1000, 0)
	b := newEchoBook()
	b.now = func() time.Time { return now }

	b.typed("%1", 7, "echo ready", false, false)
	if got := b.active("%1", 7); !slices.Equal(got, []string{"echo ready"}) {
		t.Fatalf("unsubmitted line: active = %q", got)
	}
	if got := b.active("%1", 8); got != nil {
		t.Errorf("another server's pane %%1 (pid 8) must not share echo: %q", got)
	}
	b.typed("%1", 7, "Enter", false, false)
	now = now.Add(9 * time.Second)
	if got := b.active("%1", 7); !slices.Equal(got, []string{"echo ready"}) {
		t.Errorf("submitted 9 s ago: active = %q", got)
	}
	now = now.Add(2 * time.Second)
	if got := b.active("%1", 7); got != nil {
		t.Errorf("submitted 11 s ago: active = %q, want nothing", got)
	}

	// Editing keys: BSpace erases, C-u kills, an unmodelled key stops
	// discounting the line.
	b.typed("%1", 7, "lsx", false, false)
	b.typed("%1", 7, "BSpace", false, false)
	if got := b.active("%1", 7); !slices.Equal(got, []string{"ls"}) {
		t.Errorf("after BSpace: %q", got)
	}
	b.typed("%1", 7, "C-u", false, false)
	if got := b.active("%1", 7); got != nil {
		t.Errorf("after C-u: %q", got)
	}
	b.typed("%1", 7, "git st", false, false)
	b.typed("%1", 7, "Tab", false, false)
	if got := b.active("%1", 7); got != nil {
		t.Errorf("after Tab: %q", got)
	}
	// literal text that names a key is text; a newline inside submits.
	b.typed("%1", 7, "C-c", true, false)
	b.typed("%1", 7, "\nnext", true, false)
	if got := b.active("%1", 7); !slices.Equal(got, []string{"C-c", "next"}) {
		t.Errorf("literal keys: %q", got)
	}
}

func TestClassifyKey(t *testing.T) {
	for keys, want := range map[string]keyKind{
		"Enter": keySubmit, "C-m": keySubmit, "C-c": keyKill, "C-u": keyKill, "BSpace": keyErase,
		"Up": keyUnknown, "Tab": keyUnknown, "Escape": keyUnknown, "M-x": keyUnknown, "F5": keyUnknown,
		"ls -la": keyText, "y": keyText, "Enterprise": keyText, "Space": keyText, "C-": keyText,
	} {
		if got := classifyKey(keys, false); got != want {
			t.Errorf("classifyKey(%q) = %v, want %v", keys, got, want)
		}
	}
	if classifyKey("Enter", true) != keyText {
		t.Error("literal keys are always text")
	}
}

func TestEchoSpansStandaloneOnly(t *testing.T) {
	text := "$ y\nready\n$ echo ready\nready\n"
	spans := echoSpans(text, []string{"y", "echo ready"})
	want := [][2]int{{2, 3}, {12, 22}}
	if !slices.Equal(spans, want) {
		t.Errorf("spans = %v, want %v", spans, want)
	}
	m, _ := newMatcher([]string{"ready"}, false)
	s, e, ok := m.find(text, 0, spans)
	if !ok || text[s:e] != "ready" || s != 4 {
		t.Errorf("first non-echo ready at %d..%d (%v), want 4", s, e, ok)
	}
	s, _, ok = m.find(text, 10, spans)
	if !ok || s != 23 {
		t.Errorf("ready after the echoed command at %d (%v), want 23: the echo at 17 is discounted", s, ok)
	}
}

func TestMatcher(t *testing.T) {
	if _, err := newMatcher([]string{"ok", "(bad"}, true); err == nil {
		t.Error("an invalid regex must be an error")
	}
	m, _ := newMatcher([]string{`^done \d+$`}, true)
	text := "x\ndone 12\n"
	if s, e, ok := m.find(text, 0, nil); !ok || text[s:e] != "done 12" {
		t.Errorf("regex (?m) match = %q, %v", text[s:e], ok)
	}
	// Only matches that end in new text count.
	if _, _, ok := m.find(text, len(text), nil); ok {
		t.Error("a match entirely before newFrom must not count")
	}
	lit, _ := newMatcher([]string{"ready"}, false)
	// Split across chunks: "rea" was old, "dy" is new.
	if s, _, ok := lit.find("already", 5, nil); !ok || s != 2 {
		t.Errorf("literal across the boundary at %d, %v", s, ok)
	}
	empty, _ := newMatcher([]string{".*"}, true)
	if _, _, ok := empty.find("\n\n", 0, nil); ok {
		t.Error("empty regex matches are not evidence of output")
	}
}

func FuzzEchoSpans(f *testing.F) {
	f.Add("$ echo ready\nready\n", "echo ready", "ready")
	f.Add("yyy y", "y", "y")
	f.Fuzz(func(t *testing.T, text, typed, pattern string) {
		if pattern == "" {
			return
		}
		spans := echoSpans(text, []string{typed})
		for _, s := range spans {
			if s[0] < 0 || s[1] > len(text) || text[s[0]:s[1]] != typed {
				t.Fatalf("span %v is not an occurrence of %q in %q", s, typed, text)
			}
		}
		m, _ := newMatcher([]string{pattern}, false)
		if s, e, ok := m.find(text, 0, spans); ok && (text[s:e] != pattern || covered(spans, s, e)) {
			t.Fatalf("match %d..%d in %q is wrong or inside echo", s, e, text)
		}
	})
}

// classifyKey reads a send_keys string the way send_keys sends a string: as a
// key when it names one (see tmuxctl.ParseKey) and literal is off,
// otherwise as text.
func classifyKey(keys string, literal bool) keyKind {
	if literal {
		return keyText
	}
	k, err := tmuxctl.ParseKey(keys)
	if err != nil || !k.Named() {
		return keyText
	}
	kind, _ := classifyParsed(k)
	return kind
}
