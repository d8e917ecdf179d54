package screenwatch

import (
	"testing"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/match"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestFind(t *testing.T) {
	literal := func(p ...string) *match.Matcher {
		m, err := match.New(Literals(p), true)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	regex := func(p string) *match.Matcher {
		m, err := match.New([]string{p}, true)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name      string
		m         *match.Matcher
		prev, cur tmuxctl.ScreenGrab
		echoes    []string
		want      string // "" for no match
	}{
		{"a match that was on the screen before is not one",
			literal("hello"), grab(0, "hello", "", "", ""), grab(0, "hello", "bye", "", ""), nil, ""},
		{"the same text on a new row is",
			literal("hello"), grab(0, "hello", "", "", ""), grab(0, "hello", "hello again", "", ""), nil, "hello"},
		{"a redrawn row matches across its old and new parts",
			literal("Progress 20%"), grab(0, "Progress 10%", "", "", ""), grab(0, "Progress 20%", "", "", ""), nil, "Progress 20%"},
		{"a match all inside the unchanged start of a row is not one",
			literal("Progress"), grab(0, "Progress 10%", "", "", ""), grab(0, "Progress 20%", "", "", ""), nil, ""},
		{"a pattern ending in a blank matches at the end of a row",
			literal("$ "), grab(0, "", "", "", ""), grab(0, "$", "", "", ""), nil, "$"},
		{"but not in the middle of one without the blank",
			literal("$ "), grab(0, "", "", "", ""), grab(0, "$HOME", "", "", ""), nil, ""},
		{"literals are not regular expressions",
			literal("a.c"), grab(0, "", "", "", ""), grab(0, "abc", "a.c", "", ""), nil, "a.c"},
		{"a regular expression across two new rows",
			regex(`one\ntwo`), grab(0, "x", "", "", ""), grab(0, "x", "one", "two", ""), nil, "one\ntwo"},
		{"our own echo does not match; the output below it does",
			literal("ready"), grab(0, "$", "", "", ""), grab(0, "$ echo ready", "ready", "", ""), []string{"echo ready"}, "ready"},
		{"no patterns: the first new row",
			literal(), grab(0, "a", "", "", ""), grab(0, "a", "  b c", "d", ""), nil, "  b c"},
		{"no patterns: blanks and our echo are nothing new",
			literal(), grab(0, "$", "", "", ""), grab(0, "$ ls", "", "", ""), []string{"ls"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := NewUpdate(tt.prev, tt.cur)
			s, e, ok := Find(u, tt.m, echo.Spans(u.Text, tt.echoes))
			got := ""
			if ok {
				got = u.Text[s:e]
			}
			if got != tt.want {
				t.Errorf("match = %q, want %q", got, tt.want)
			}
		})
	}
}
