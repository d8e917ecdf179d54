package tmuxctl

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A Key is a key name as tmux's send-keys reads it (key-string.c,
// key_string_lookup_string): optional modifiers, then one base key.
type Key struct {
	Ctrl, Meta, Shift bool
	// Name is the base key's table name as tmux spells it ("Enter",
	// "F5"), or "" when the base is a character.
	Name string
	// Char is the base character when Name is "": a printable character,
	// or a control character given in hex (0x03) or with ^.
	Char rune
	// Plain is a lone character with no modifier ("a", "é", "-"): typing
	// it as a key or as text is the same.
	Plain bool
}

// keyTable is tmux's key_string_table as every supported version (3.2a
// on) has it. The mouse keys are left out (send-keys would send a mouse
// event with no position) and so are the [NUL]-style C0 names, which
// 3.2a does not know and would type as text.
var keyTable = sync.OnceValue(func() map[string]string {
	names := []string{"IC", "Insert", "DC", "Delete", "Home", "End", "NPage", "PageDown", "PgDn",
		"PPage", "PageUp", "PgUp", "Tab", "BTab", "Space", "BSpace", "Enter", "Escape",
		"Up", "Down", "Left", "Right",
		"KP/", "KP*", "KP-", "KP+", "KP.", "KPEnter"}
	for i := 0; i <= 9; i++ {
		names = append(names, "KP"+strconv.Itoa(i))
	}
	for i := 1; i <= 12; i++ {
		names = append(names, "F"+strconv.Itoa(i))
	}
	t := make(map[string]string, len(names))
	for _, n := range names {
		t[strings.ToLower(n)] = n // tmux compares names ignoring case
	}
	return t
})

// KeyForms describes the key names [ParseKey] accepts, for error messages.
const KeyForms = "a key name such as Enter, Escape, Tab, BTab, Space, BSpace, Up, Down, Left, Right, " +
	"Home, End, PageUp (PPage, PgUp), PageDown (NPage, PgDn), Insert (IC), Delete (DC), F1 to F12, " +
	"KP0 to KP9, KP/, KP*, KP-, KP+, KP., KPEnter; or one character (a, ;, é); each optionally " +
	"after modifiers C- (Ctrl), M- (Meta/Alt), S- (Shift), as in C-c, M-x, C-M-Left; or ^X for " +
	"Ctrl+X (^C); or a character code in hex, 0x1b"

// ParseKey reads name the way tmux's send-keys does and returns the key,
// or an error when tmux would not read it as a key (send-keys would then
// type it as text).
func ParseKey(name string) (Key, error) {
	var k Key
	bad := func() (Key, error) { return Key{}, fmt.Errorf("%q is not a tmux key name", name) }
	if name == "" {
		return bad()
	}
	if strings.HasPrefix(name, "0x") {
		digits := name[2:]
		if digits == "" || len(digits) > 8 {
			return bad()
		}
		u, err := strconv.ParseUint(digits, 16, 32)
		if err != nil || (u >= 32 && !utf8.ValidRune(rune(u))) {
			return bad()
		}
		k.Char = rune(u)
		return k, nil
	}
	s := name
	if len(s) >= 2 && s[0] == '^' {
		k.Ctrl = true
		s = s[1:]
		if len(s) == 1 {
			k.Char = rune(strings.ToLower(s)[0])
			return k, nil
		}
	}
	for len(s) >= 2 && s[1] == '-' {
		switch s[0] {
		case 'C', 'c':
			k.Ctrl = true
		case 'M', 'm':
			k.Meta = true
		case 'S', 's':
			k.Shift = true
		default:
			return bad()
		}
		s = s[2:]
	}
	if s == "" {
		return bad()
	}
	if r, size := utf8.DecodeRuneInString(s); size == len(s) && r != utf8.RuneError {
		if r < 32 {
			return bad() // a raw control character: tmux wants 0x.. or ^X
		}
		k.Char = r
		k.Plain = !k.Ctrl && !k.Meta && !k.Shift
		return k, nil
	}
	n, ok := keyTable()[strings.ToLower(s)]
	if !ok {
		return bad()
	}
	k.Name = n
	return k, nil
}

// Named reports whether k is more than a lone character: what tmux would
// send as a key where text would differ.
func (k Key) Named() bool { return !k.Plain }
