package screenwatch

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// grab is a pane of height rows showing rows (history first) with hist
// rows of history in all.
func grab(hist int, rows ...string) tmuxctl.ScreenGrab {
	return tmuxctl.ScreenGrab{Rows: rows, History: hist, Limit: 2000, Height: 4}
}

// freshTexts is the new part of each fresh row of cur.
func freshTexts(prev, cur tmuxctl.ScreenGrab) []string {
	u := NewUpdate(prev, cur)
	var out []string
	for _, s := range u.Spans {
		out = append(out, u.Text[s.From:s.End])
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name      string
		prev, cur tmuxctl.ScreenGrab
		fresh     []string
		lost      int
	}{
		{"nothing changed", grab(0, "hello", "$ ", "", ""), grab(0, "hello", "$ ", "", ""), nil, 0},
		{"a line below the old ones",
			grab(0, "hello", "$ ", "", ""), grab(0, "hello", "$ ", "world", ""), []string{"world"}, 0},
		{"typing on the prompt line: only what was typed is new",
			grab(0, "hello", "$ ", "", ""), grab(0, "hello", "$ ls", "", ""), []string{"ls"}, 0},
		{"scrolled by two: the history says so",
			grab(3, "a", "b", "c", "d"), grab(5, "a", "b", "c", "d", "e", "f"), []string{"e", "f"}, 0},
		{"scrolled, the lookback keeps the same number of rows",
			grab(3, "x", "a", "b", "c"), grab(5, "b", "c", "d", "e"), []string{"d", "e"}, 0},
		{"repeated lines scroll: the history decides",
			grab(10, "y", "y", "y", "y"), grab(12, "y", "y", "y", "y"), []string{"y", "y"}, 0},
		{"history full and trimmed by tmux: the rows decide",
			grab(2000, "k", "l", "m", "n"), grab(1800, "m", "n", "o", "p"), []string{"o", "p"}, 0},
		{"history at its limit and not yet trimmed: it did not grow, the rows moved",
			grab(2000, "a", "b", "c", "d", "e", "f"), grab(2000, "c", "d", "e", "f", "g", "h"), []string{"g", "h"}, 0},
		{"cleared history: nothing moved on screen",
			grab(50, "a", "b", "c", "d"), grab(0, "a", "b", "c", "d"), nil, 0},
		{"everything scrolled past: all is new, and what could not be seen is lost",
			grab(0, "a", "b", "c", "d"), grab(10, "w", "x", "y", "z"), []string{"w", "x", "y", "z"}, 6},
		{"a wrapped line that grew joins two rows: the rest moves down one",
			grab(0, "top", "long", "", ""), grab(0, "top", "longer and longer", ""), []string{"er and longer"}, 0},
		{"a full-screen program's screen replaces the shell's",
			grab(5, "$ vim", "", "", ""), tmuxctl.ScreenGrab{Rows: []string{"~", "~", "~", "\"f\" 0L"}, Height: 4, Alternate: true},
			[]string{"~", "~", "~", "\"f\" 0L"}, 0},
		{"a blanked row is not new text",
			grab(0, "a", "b", "c", ""), grab(0, "a", "b", "", ""), nil, 0},
		{"a changed character inside a multibyte rune starts at the rune",
			grab(0, "café", "", "", ""), grab(0, "cafè", "", "", ""), []string{"è"}, 0},
		{"a shortened row is not new text",
			grab(0, "abc", "", "", ""), grab(0, "ab", "", "", ""), nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := freshTexts(tt.prev, tt.cur); !reflect.DeepEqual(got, tt.fresh) {
				t.Errorf("fresh = %q, want %q", got, tt.fresh)
			}
			if got := Compare(tt.prev, tt.cur).Lost; got != tt.lost {
				t.Errorf("lost = %d, want %d", got, tt.lost)
			}
		})
	}
}

func TestFreshText(t *testing.T) {
	u := NewUpdate(grab(0, "old", "", "", ""), grab(0, "old", "one", "two", "three"))
	if got := string(u.FreshText(len(u.Text) + 1)); got != "one\ntwo\nthree\n" {
		t.Errorf("all fresh text = %q", got)
	}
	end := strings.Index(u.Text, "tw") + 2
	if got := string(u.FreshText(end)); got != "one\ntw" {
		t.Errorf("fresh text up to a match = %q", got)
	}
}

// TestWatcherBacksOff checks that a still pane is looked at less and less
// often, up to MaxInterval, and that a change brings the first interval
// back.
func TestWatcherBacksOff(t *testing.T) {
	rows := []string{"a", "", "", ""}
	w, err := Start(context.Background(), func(context.Context, int) (tmuxctl.ScreenGrab, error) {
		return grab(0, rows...), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var slept []time.Duration
	w.sleep = func(_ context.Context, d time.Duration) bool { slept = append(slept, d); return true }
	for range 8 {
		if _, err := w.Next(context.Background(), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	rows = []string{"a", "b", "", ""}
	u, err := w.Next(context.Background(), time.Hour)
	if err != nil || len(u.Fresh) != 1 {
		t.Fatalf("after a change: %+v, %v", u.Change, err)
	}
	want := []time.Duration{10, 20, 40, 80, 160, 250, 250, 250, 250}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if !reflect.DeepEqual(slept, want) {
		t.Errorf("intervals = %v, want %v", slept, want)
	}
	if w.Interval() != FirstInterval {
		t.Errorf("interval after a change = %v, want %v", w.Interval(), FirstInterval)
	}
}

// TestWatcherLooksFurtherBack checks that when more scrolled past than a
// look held, the watcher looks again with enough history.
func TestWatcherLooksFurtherBack(t *testing.T) {
	hist := 0
	var asked []int
	w, err := Start(context.Background(), func(_ context.Context, lookback int) (tmuxctl.ScreenGrab, error) {
		asked = append(asked, lookback)
		return grab(hist, "x", "", "", ""), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w.sleep = func(context.Context, time.Duration) bool { return true }
	hist = 100
	if _, err := w.Next(context.Background(), time.Hour); err != nil {
		t.Fatal(err)
	}
	if want := []int{minLookback, minLookback, 104}; !reflect.DeepEqual(asked, want) {
		t.Errorf("lookbacks asked = %v, want %v", asked, want)
	}
}

func TestWatcherEnds(t *testing.T) {
	gone := errors.New("can't find pane")
	calls := 0
	w, err := Start(context.Background(), func(context.Context, int) (tmuxctl.ScreenGrab, error) {
		calls++
		if calls > 1 {
			return tmuxctl.ScreenGrab{}, gone
		}
		return grab(0, "a"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Next(context.Background(), time.Millisecond); !errors.Is(err, gone) {
		t.Errorf("a pane that went: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Next(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("a wait that ended: %v", err)
	}
}

func TestWithoutDeathNotice(t *testing.T) {
	prev := grab(0, "$", "", "", "")
	cur := grab(0, "$", "bye", "", "Pane is dead (status 3, Tue Dec  1 00:00:00 2026)")
	live := NewUpdate(prev, cur)
	if len(live.WithoutDeathNotice().Spans) != 2 {
		t.Errorf("a live pane's rows were dropped")
	}
	cur.Dead = true
	u := NewUpdate(prev, cur).WithoutDeathNotice()
	if got := string(u.FreshText(len(u.Text) + 1)); got != "bye\n" {
		t.Errorf("fresh text of a dead pane = %q, want only the program's", got)
	}
}
