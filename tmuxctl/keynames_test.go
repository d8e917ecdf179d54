package tmuxctl

import "testing"

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
