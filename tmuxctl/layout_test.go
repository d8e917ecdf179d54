package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseLayout(t *testing.T) {
	for _, c := range []struct {
		layout string
		panes  int // 0: refused
	}{
		{"b25d,80x24,0,0,0", 1},
		{"8205,80x24,0,0{40x24,0,0,0,39x24,41,0,1}", 2},
		{"8f06,80x24,0,0{40x24,0,0[40x12,0,0,0,40x11,0,13,2],39x24,41,0,1}", 3},
		{"8206,80x24,0,0{40x24,0,0,0,39x24,41,0,1}", 0}, // checksum off by one
		{"vertical", 0}, // crashes tmux 3.3a
		{"zzzz,80x24,0,0,0", 0},
		{"#{pane_id}", 0},
		{"b25d,80x24,0,0,0;", 0},
		{"b25d,", 0},
		{"", 0},
	} {
		n, err := parseLayout(c.layout)
		if c.panes == 0 {
			if err == nil {
				t.Errorf("%q: accepted (%d panes), want refused", c.layout, n)
			}
			continue
		}
		if err != nil || n != c.panes {
			t.Errorf("%q: %d panes, %v; want %d", c.layout, n, err, c.panes)
		}
	}
}

func FuzzParseLayout(f *testing.F) {
	f.Add("8f06,80x24,0,0{40x24,0,0[40x12,0,0,0,40x11,0,13,2],39x24,41,0,1}")
	f.Fuzz(func(t *testing.T, s string) {
		ParseLayout(s) // must not panic or hang
	})
}

// A layout string of another size than the window is refused before tmux
// sees it: tmux would resize the window to it.
func TestApplyLayoutRefusesAnotherSize(t *testing.T) {
	body := "200x60,0,0{100x60,0,0,0,99x60,101,0,1}"
	layout := fmt.Sprintf("%04x,%s", layoutChecksum(body), body)
	err := (&Client{}).ApplyLayout(context.Background(), "@0", 2, 80, 24, layout)
	var le *LayoutError
	if !errors.As(err, &le) || !strings.Contains(le.Reason, "200x60") || !strings.Contains(le.Reason, "80x24") {
		t.Errorf("ApplyLayout(%s) on an 80x24 window = %v", layout, err)
	}
}

// ParseLayout gives each pane's cell, nested splits included.
func TestParseLayoutCells(t *testing.T) {
	body := "80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}"
	got, err := ParseLayout(fmt.Sprintf("%04x,%s", layoutChecksum(body), body))
	if err != nil {
		t.Fatal(err)
	}
	want := map[PaneID]Cell{
		"%0": {Left: 0, Top: 0, Width: 40, Height: 24},
		"%1": {Left: 41, Top: 0, Width: 39, Height: 12},
		"%2": {Left: 41, Top: 13, Width: 39, Height: 11},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for id, c := range want {
		if got[id] != c {
			t.Errorf("%s: got %+v, want %+v", id, got[id], c)
		}
	}
	for _, bad := range []string{"", "b25f", "b25f,80x24,0,0", "b25f,80x24,0,0,2,", "b25f,80x24,0,0{40x24,0,0,0"} {
		if _, err := ParseLayout(bad); err == nil {
			t.Errorf("ParseLayout(%q) succeeded", bad)
		}
	}
}
