package tmuxctl

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseKey(t *testing.T) {
	named := []string{"Enter", "enter", "ENTER", "C-c", "c-c", "M-x", "S-Up", "C-M-Left", "m-C-s-F12",
		"^C", "^d", "^é", "0x1b", "0x3", "0xe9", "KP/", "KPEnter", "BTab", "PgDn", "F1", "C--", "M-é", "Space"}
	for _, name := range named {
		k, err := ParseKey(name)
		if err != nil || !k.Named() {
			t.Errorf("ParseKey(%q) = %+v, %v; want a named key", name, k, err)
		}
	}
	plain := []string{"a", "-", ";", "é", "^"}
	for _, name := range plain {
		k, err := ParseKey(name)
		if err != nil || k.Named() {
			t.Errorf("ParseKey(%q) = %+v, %v; want a lone character", name, k, err)
		}
	}
	bad := []string{"", "Entr", "C-", "C-c C-c", "Escape Enter", "X-a", "F13", "F0", "0x", "0xzz",
		"0x110000", "0X1b", "MouseDown1", "User0", "[NUL]", "\x01", "C-\x01", "ab", "KP", "--"}
	for _, name := range bad {
		if k, err := ParseKey(name); err == nil {
			t.Errorf("ParseKey(%q) = %+v; want an error", name, k)
		}
	}
	if k, _ := ParseKey("^C"); !k.Ctrl || k.Char != 'c' {
		t.Errorf("^C = %+v, want Ctrl+c", k)
	}
	if k, _ := ParseKey("pageup"); k.Name != "PageUp" {
		t.Errorf("pageup = %+v, want PageUp", k)
	}
}

func TestSplitText(t *testing.T) {
	s := strings.Repeat("a", 2047) + "é" + strings.Repeat("b", 3000)
	parts := splitText(s, 2048)
	if strings.Join(parts, "") != s {
		t.Fatal("the parts do not make the text")
	}
	for i, p := range parts {
		if len(p) > 2048 || !utf8.ValidString(p) {
			t.Errorf("part %d: %d bytes, valid UTF-8 %v", i, len(p), utf8.ValidString(p))
		}
	}
	if len(parts[0]) != 2047 {
		t.Errorf("the first part is %d bytes; it should stop before the 2-byte é", len(parts[0]))
	}
	if got := splitText("", 10); len(got) != 0 {
		t.Errorf("empty text gave %q", got)
	}
}
