package handlers

import (
	"slices"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestEchoBookSequence(t *testing.T) {
	b := newEchoBook()
	b.now = func() time.Time { return time.Unix(1000, 0) }
	b.typedItems("%1", 7, []tmuxctl.KeyItem{
		{Text: "x = 1"}, {Key: "Enter"}, // submitted
		{Text: "abandoned"}, {Key: "^C"}, // killed
		{Text: "lsx"}, {Key: "C-h"}, {Key: "Space"}, {Key: "0x41"}, {Key: "0x0d"}, // "ls A", submitted
		{Text: "typing"}, {Key: "m-x"}, // unknown key: the line can no longer be predicted
		{Text: "pending"},
	})
	if got := b.active("%1", 7); !slices.Equal(got, []string{"x = 1", "ls A", "pending"}) {
		t.Errorf("active = %q", got)
	}
}

func TestKeyItems(t *testing.T) {
	seq := []any{map[string]any{"text": "x"}, map[string]any{"key": "C-d"}}
	items, err := keyItems(gen.SendKeysInput{Keys: seq, Enter: true})
	if err != nil || !slices.Equal(items, []tmuxctl.KeyItem{{Text: "x"}, {Key: "C-d"}}) {
		t.Fatalf("sequence: %v, %v (no Enter may be added)", items, err)
	}
	if got := describeSent(items); got != `text "x", key C-d` {
		t.Errorf("sent = %s", got)
	}
	for keys, want := range map[string][]tmuxctl.KeyItem{
		"C-c":     {{Key: "C-c"}, {Key: "Enter"}},
		"C-c C-c": {{Text: "C-c C-c"}, {Key: "Enter"}},
		"y":       {{Text: "y"}, {Key: "Enter"}},
		"":        {{Key: "Enter"}},
	} {
		items, err := keyItems(gen.SendKeysInput{Keys: keys, Enter: true})
		if err != nil || !slices.Equal(items, want) {
			t.Errorf("string %q: %v, %v; want %v", keys, items, err, want)
		}
	}
	if _, err := keyItems(gen.SendKeysInput{Keys: []any{map[string]any{"key": "Entr"}}}); err == nil {
		t.Error("an unknown key name must be an error")
	}
}
