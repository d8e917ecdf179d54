package tmuxctl

import (
	"reflect"
	"testing"
)

func TestParseTerminalLook(t *testing.T) {
	out := "hello\nName?   \n\n%3 4242 /dev/pts/7 6 1 0 0 my prog\n"
	l, id, err := parseTerminalLook(out)
	if err != nil {
		t.Fatal(err)
	}
	want := TerminalLook{PID: 4242, TTY: "/dev/pts/7", CursorX: 6, CursorY: 1, Command: "my prog",
		Rows: []string{"hello", "Name?", ""}}
	if id != "%3" || !reflect.DeepEqual(l, want) {
		t.Errorf("got %q %+v, want %%3 %+v", id, l, want)
	}
	if _, _, err := parseTerminalLook("just text\n"); err == nil {
		t.Error("a look without its format line parsed")
	}
}
