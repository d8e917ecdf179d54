package echo

import (
	"slices"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestEchoBook(t *testing.T) {
	now := time.Unix(1000, 0)
	b := NewBook()
	b.now = func() time.Time { return now }

	b.Typed("%1", 7, "echo ready", false, false)
	if got := b.Active("%1", 7); !slices.Equal(got, []string{"echo ready"}) {
		t.Fatalf("unsubmitted line: active = %q", got)
	}
	if got := b.Active("%1", 8); got != nil {
		t.Errorf("another server's pane %%1 (pid 8) must not share echo: %q", got)
	}
	b.Typed("%1", 7, "Enter", false, false)
	now = now.Add(9 * time.Second)
	if got := b.Active("%1", 7); !slices.Equal(got, []string{"echo ready"}) {
		t.Errorf("submitted 9 s ago: active = %q", got)
	}
	now = now.Add(2 * time.Second)
	if got := b.Active("%1", 7); got != nil {
		t.Errorf("submitted 11 s ago: active = %q, want nothing", got)
	}

	// Editing keys: BSpace erases, C-u kills, an unmodelled key stops
	// discounting the line.
	b.Typed("%1", 7, "lsx", false, false)
	b.Typed("%1", 7, "BSpace", false, false)
	if got := b.Active("%1", 7); !slices.Equal(got, []string{"ls"}) {
		t.Errorf("after BSpace: %q", got)
	}
	b.Typed("%1", 7, "C-u", false, false)
	if got := b.Active("%1", 7); got != nil {
		t.Errorf("after C-u: %q", got)
	}
	b.Typed("%1", 7, "git st", false, false)
	b.Typed("%1", 7, "Tab", false, false)
	if got := b.Active("%1", 7); got != nil {
		t.Errorf("after Tab: %q", got)
	}
	// literal text that names a key is text; a newline inside submits.
	b.Typed("%1", 7, "C-c", true, false)
	b.Typed("%1", 7, "\nnext", true, false)
	if got := b.Active("%1", 7); !slices.Equal(got, []string{"C-c", "next"}) {
		t.Errorf("literal keys: %q", got)
	}
}

func TestEchoBookSequence(t *testing.T) {
	b := NewBook()
	b.now = func() time.Time { return time.Unix(1000, 0) }
	b.TypedItems("%1", 7, []tmuxctl.KeyItem{
		{Text: "x = 1"}, {Key: "Enter"}, // submitted
		{Text: "abandoned"}, {Key: "^C"}, // killed
		{Text: "lsx"}, {Key: "C-h"}, {Key: "Space"}, {Key: "0x41"}, {Key: "0x0d"}, // "ls A", submitted
		{Text: "typing"}, {Key: "m-x"}, // unknown key: the line can no longer be predicted
		{Text: "pending"},
	})
	if got := b.Active("%1", 7); !slices.Equal(got, []string{"x = 1", "ls A", "pending"}) {
		t.Errorf("active = %q", got)
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
