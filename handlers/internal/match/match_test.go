package match

import (
	"slices"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
)

func TestEchoSpansStandaloneOnly(t *testing.T) {
	text := "$ y\nready\n$ echo ready\nready\n"
	spans := echo.Spans(text, []string{"y", "echo ready"})
	want := [][2]int{{2, 3}, {12, 22}}
	if !slices.Equal(spans, want) {
		t.Errorf("spans = %v, want %v", spans, want)
	}
	m, _ := New([]string{"ready"}, false)
	s, e, ok := m.Find(text, 0, spans)
	if !ok || text[s:e] != "ready" || s != 4 {
		t.Errorf("first non-echo ready at %d..%d (%v), want 4", s, e, ok)
	}
	s, _, ok = m.Find(text, 10, spans)
	if !ok || s != 23 {
		t.Errorf("ready after the echoed command at %d (%v), want 23: the echo at 17 is discounted", s, ok)
	}
}

func TestMatcher(t *testing.T) {
	if _, err := New([]string{"ok", "(bad"}, true); err == nil {
		t.Error("an invalid regex must be an error")
	}
	m, _ := New([]string{`^done \d+$`}, true)
	text := "x\ndone 12\n"
	if s, e, ok := m.Find(text, 0, nil); !ok || text[s:e] != "done 12" {
		t.Errorf("regex (?m) match = %q, %v", text[s:e], ok)
	}
	// Only matches that end in new text count.
	if _, _, ok := m.Find(text, len(text), nil); ok {
		t.Error("a match entirely before newFrom must not count")
	}
	lit, _ := New([]string{"ready"}, false)
	// Split across chunks: "rea" was old, "dy" is new.
	if s, _, ok := lit.Find("already", 5, nil); !ok || s != 2 {
		t.Errorf("literal across the boundary at %d, %v", s, ok)
	}
	empty, _ := New([]string{".*"}, true)
	if _, _, ok := empty.Find("\n\n", 0, nil); ok {
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
		spans := echo.Spans(text, []string{typed})
		for _, s := range spans {
			if s[0] < 0 || s[1] > len(text) || text[s[0]:s[1]] != typed {
				t.Fatalf("span %v is not an occurrence of %q in %q", s, typed, text)
			}
		}
		m, _ := New([]string{pattern}, false)
		if s, e, ok := m.Find(text, 0, spans); ok && (text[s:e] != pattern || echo.Covered(spans, s, e)) {
			t.Fatalf("match %d..%d in %q is wrong or inside echo", s, e, text)
		}
	})
}
