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
