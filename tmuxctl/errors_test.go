package tmuxctl

import (
	"errors"
	"testing"
)

// TestClassifyRefusals: the refusals handlers act on are told by
// sentinel, so no caller reads tmux's text.
func TestClassifyRefusals(t *testing.T) {
	for msg, want := range map[string]error{
		"duplicate session: work":       ErrNameTaken,
		"invalid option: nosuch":        ErrUnknownOption,
		"unknown option: nosuch":        ErrUnknownOption,
		"ambiguous option: status-":     ErrUnknownOption,
		"duplicate session: a\nmore":    ErrNameTaken,
		"can't find session: work":      nil,
		"unknown command: rename-thing": nil,
	} {
		err := classify(&CommandError{Argv: []string{"x"}, Message: msg})
		for _, s := range []error{ErrNameTaken, ErrUnknownOption} {
			if got := errors.Is(err, s); got != (s == want) {
				t.Errorf("%q: errors.Is(%v) = %v", msg, s, got)
			}
		}
		var ce *CommandError
		if !errors.As(err, &ce) || ce.Message != msg {
			t.Errorf("%q: tmux's refusal is lost: %#v", msg, err)
		}
	}
}

// Only an empty option name is tmux's expansion giving up: a name that
// is ambiguous or unknown is a real refusal.
func TestExpansionGaveUp(t *testing.T) {
	for msg, want := range map[string]bool{
		"ambiguous option:":     true,
		"invalid option:":       true,
		"ambiguous option: sta": false,
		"invalid option: @x":    false,
		"can't find pane: %9":   false,
	} {
		err := error(&CommandError{Argv: []string{"set-option"}, Message: msg})
		if got := expansionGaveUp(err); got != want {
			t.Errorf("expansionGaveUp(%q) = %v, want %v", msg, got, want)
		}
	}
	if expansionGaveUp(nil) {
		t.Error("expansionGaveUp(nil) = true")
	}
}
