package inputwait

import "testing"

// A question on the screen is in the stream once the stream's last line
// holds what the cursor's row shows before the cursor.
func TestScreenInStream(t *testing.T) {
	asking := Screen{Rows: []string{"$ ./setup", "Continue? [y/N]"}, CursorX: 16, CursorY: 1}
	for _, c := range []struct {
		name   string
		screen Screen
		text   string
		want   bool
	}{
		{"nothing yet", asking, "", false},
		{"only the command", asking, "$ ./setup\n", false},
		{"the question", asking, "$ ./setup\nContinue? [y/N] ", true},
		{"an older question", asking, "Continue? [y/N] \nworking\n", false},
		{"redrawn with a carriage return", asking, "50%\rContinue? [y/N] ", true},
		{"a long question: its end", Screen{Rows: []string{"Do you really want to overwrite the file? [y/N]"}, CursorX: 48},
			"...want to overwrite the file? [y/N] ", true},
		{"text after the cursor is not looked for", Screen{Rows: []string{"user%            ~/src"}, CursorX: 6},
			"user% ~/src", true},
		{"full-screen program", Screen{Rows: []string{"-- INSERT --"}, CursorX: 3, Alternate: true}, "", true},
		{"cursor after no text", Screen{Rows: []string{"line", ""}, CursorY: 1}, "", true},
	} {
		if got := c.screen.InStream([]byte(c.text)); got != c.want {
			t.Errorf("%s: InStream(%q) = %v, want %v", c.name, c.text, got, c.want)
		}
	}
}
