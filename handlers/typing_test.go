package handlers

import (
	"slices"
	"strconv"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestKeyItems(t *testing.T) {
	yes, no := true, false
	seq := []any{map[string]any{"text": "x"}, map[string]any{"key": "C-d"}}
	items, err := keyItems(gen.SendKeysInput{Keys: seq, Enter: &yes})
	if err != nil || !slices.Equal(items, []tmuxctl.KeyItem{{Text: "x"}, {Key: "C-d"}}) {
		t.Fatalf("sequence: %v, %v (no Enter may be added)", items, err)
	}
	if got := describeSent(items); got != `text "x", key C-d` {
		t.Errorf("sent = %s", got)
	}
	for _, c := range []struct {
		keys    string
		enter   *bool
		literal bool
		want    []tmuxctl.KeyItem
	}{
		// enter omitted: Enter after text, none after a key name.
		{"C-c", nil, false, []tmuxctl.KeyItem{{Key: "C-c"}}},
		{"C-d", nil, false, []tmuxctl.KeyItem{{Key: "C-d"}}},
		{"Enter", nil, false, []tmuxctl.KeyItem{{Key: "Enter"}}},
		{"C-c C-c", nil, false, []tmuxctl.KeyItem{{Text: "C-c C-c"}, {Key: "Enter"}}},
		{"y", nil, false, []tmuxctl.KeyItem{{Text: "y"}, {Key: "Enter"}}},
		{"", nil, false, []tmuxctl.KeyItem{{Key: "Enter"}}},
		{"C-c", nil, true, []tmuxctl.KeyItem{{Text: "C-c"}, {Key: "Enter"}}},
		// enter given: it decides.
		{"C-c", &yes, false, []tmuxctl.KeyItem{{Key: "C-c"}, {Key: "Enter"}}},
		{"C-c", &no, false, []tmuxctl.KeyItem{{Key: "C-c"}}},
		{"y", &no, false, []tmuxctl.KeyItem{{Text: "y"}}},
		{"y", &yes, false, []tmuxctl.KeyItem{{Text: "y"}, {Key: "Enter"}}},
		{"", &no, false, nil},
	} {
		items, err := keyItems(gen.SendKeysInput{Keys: c.keys, Enter: c.enter, Literal: c.literal})
		if err != nil || !slices.Equal(items, c.want) {
			enter := "omitted"
			if c.enter != nil {
				enter = strconv.FormatBool(*c.enter)
			}
			t.Errorf("string %q (enter %s, literal %v): %v, %v; want %v", c.keys, enter, c.literal, items, err, c.want)
		}
	}
	if _, err := keyItems(gen.SendKeysInput{Keys: []any{map[string]any{"key": "Entr"}}}); err == nil {
		t.Error("an unknown key name must be an error")
	}
}
