package clip

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKeepTail(t *testing.T) {
	for _, tc := range []struct {
		name               string
		lines              []string
		maxLines, maxBytes int
		want               Kept
	}{
		{"fits", []string{"a", "b"}, 5, 100, Kept{"a\nb", Accounting{ReturnedBytes: 3}}},
		{"line limit keeps newest", []string{"1", "2", "3", "4"}, 2, 100, Kept{"3\n4", Accounting{DroppedLines: 2, ReturnedBytes: 3}}},
		{"byte limit keeps Kept", []string{"hello", "world"}, 10, 7, Kept{"o\nworld", Accounting{OmittedBytes: 4, ReturnedBytes: 7, ByteClamped: true}}},
		{"cut lands on a rune start", []string{"ééé"}, 10, 3, Kept{"é", Accounting{OmittedBytes: 4, ReturnedBytes: 2, ByteClamped: true}}},
		{"invalid UTF-8 replaced before counting", []string{"a\xffb"}, 10, 100, Kept{"a\uFFFDb", Accounting{ReturnedBytes: 5}}},
		{"empty", nil, 10, 100, Kept{}},
		{"zero bytes", []string{"abc"}, 10, 0, Kept{"", Accounting{OmittedBytes: 3, ByteClamped: true}}},
	} {
		got := Newest(tc.lines, tc.maxLines, tc.maxBytes)
		if got != tc.want {
			t.Errorf("%s: Newest = %+v, want %+v", tc.name, got, tc.want)
		}
		if !utf8.ValidString(got.Text) || len(got.Text) > tc.maxBytes {
			t.Errorf("%s: result %q invalid or over %d bytes", tc.name, got.Text, tc.maxBytes)
		}
		whole := strings.ToValidUTF8(strings.Join(tc.lines[got.DroppedLines:], "\n"), "\uFFFD")
		if got.OmittedBytes+got.ReturnedBytes != len(whole) {
			t.Errorf("%s: omitted %d + returned %d != %d kept after line limit", tc.name, got.OmittedBytes, got.ReturnedBytes, len(whole))
		}
	}
}

// TestAccountingThen checks that text bounded in steps counts every cut
// once and returns what the last step kept.
func TestAccountingThen(t *testing.T) {
	window := Accounting{DroppedLines: 2, OmittedBytes: 10}.Missing(5)
	kept := StreamNewest([]byte("a\nb\nc\n"), 2, 100)
	got := window.Then(kept.Accounting)
	want := Accounting{DroppedLines: 3, OmittedBytes: 12, MissedBytes: 5, ReturnedBytes: 4}
	if kept.Text != "b\nc\n" || got != want {
		t.Errorf("then = %+v (text %q), want %+v (text %q)", got, kept.Text, want, "b\nc\n")
	}
}

// A flatCut is a Part written flat, its returned bytes those of Text.
type flatCut struct {
	Text                       string
	DroppedLines, OmittedBytes int
	ByteClamped                bool
	At, AtLine                 int
}

func (f flatCut) Part() Part {
	var c Part
	c.Text, c.ReturnedBytes = f.Text, len(f.Text)
	c.DroppedLines, c.OmittedBytes, c.ByteClamped = f.DroppedLines, f.OmittedBytes, f.ByteClamped
	c.At, c.AtLine = f.At, f.AtLine
	return c
}

func TestKeepStream(t *testing.T) {
	for _, tc := range []struct {
		name               string
		text               string
		which              Keep
		maxLines, maxBytes int
		want               flatCut
	}{
		{"tail", "1\n2\n3\n4\n5\n", Last, 2, 100, flatCut{Text: "4\n5\n", DroppedLines: 3, OmittedBytes: 6}},
		{"head", "1\n2\n3\n4\n5\n", First, 2, 100, flatCut{Text: "1\n2\n", DroppedLines: 3, OmittedBytes: 6, At: 4, AtLine: 2}},
		{"both, odd split gives the head more", "1\n2\n3\n4\n5\n", Ends, 3, 100, flatCut{Text: "1\n2\n5\n", DroppedLines: 2, OmittedBytes: 4, At: 4, AtLine: 2}},
		{"both, one line keeps the head", "1\n2\n3", Ends, 1, 100, flatCut{Text: "1\n", DroppedLines: 2, OmittedBytes: 3, At: 2, AtLine: 1}},
		{"fits", "1\n2\n", Ends, 5, 100, flatCut{Text: "1\n2\n"}},
		{"head by bytes ends at a line end", "aa\nbb\ncc\n", First, 10, 5, flatCut{Text: "aa\n", OmittedBytes: 6, ByteClamped: true, At: 3, AtLine: 1}},
		{"head by bytes within one long line", "ééé\n", First, 10, 3, flatCut{Text: "é", OmittedBytes: 5, ByteClamped: true, At: 2, AtLine: 1}},
		{"Kept by bytes cuts inside a line", "aa\nbb\ncc\n", Last, 10, 5, flatCut{Text: "b\ncc\n", OmittedBytes: 4, ByteClamped: true}},
		{"both by bytes splits them", "aaaa\nbbbb\ncccc\ndddd\n", Ends, 10, 10, flatCut{Text: "aaaa\ndddd\n", OmittedBytes: 10, ByteClamped: true, At: 5, AtLine: 1}},
		{"both by bytes: the Kept uses what the head leaves", "aaaa\nbbbb\ncccc\nd", Ends, 10, 12, flatCut{Text: "aaaa\ncccc\nd", OmittedBytes: 5, ByteClamped: true, At: 5, AtLine: 1}},
		{"both by bytes: a short Kept leaves the head more", "aaaa\nbbbb\ncccc\nd\ne", Ends, 10, 14, flatCut{Text: "aaaa\nbbbb\nd\ne", OmittedBytes: 5, ByteClamped: true, At: 10, AtLine: 2}},
		{"empty", "", Ends, 3, 10, flatCut{}},
	} {
		got := Stream([]byte(tc.text), tc.which, tc.maxLines, tc.maxBytes)
		if want := tc.want.Part(); got != want {
			t.Errorf("%s: Stream = %+v, want %+v", tc.name, got, want)
		}
	}
}

// TestKeepStreamInvariants checks, over many texts and limits, that what
// Stream returns is text with one run left out, at At, within both
// limits, and that AtLine counts the lines before it.
func TestKeepStreamInvariants(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	pieces := []string{"a", "bc", "\n", "\n", "é", "→"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := r.Intn(40); n > 0; n-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		text := b.String()
		which := Keep(r.Intn(3))
		maxLines, maxBytes := r.Intn(6)+1, r.Intn(30)
		c := Stream([]byte(text), which, maxLines, maxBytes)
		end := c.At + c.OmittedBytes
		if end > len(text) || text[:c.At]+text[end:] != c.Text {
			t.Fatalf("%q %v %d %d: %+v is not the text with one run left out", text, which, maxLines, maxBytes, c)
		}
		if len(c.Text) > maxBytes || !utf8.ValidString(c.Text) || len(lineStarts([]byte(c.Text))) > maxLines {
			t.Fatalf("%q %v %d %d: %+v over a limit or invalid", text, which, maxLines, maxBytes, c)
		}
		if c.OmittedBytes > 0 && c.AtLine != len(lineStarts([]byte(text[:c.At]))) {
			t.Fatalf("%q %v %d %d: AtLine %d", text, which, maxLines, maxBytes, c.AtLine)
		}
		if which == Last && c.At != 0 || which == First && c.OmittedBytes > 0 && end != len(text) {
			t.Fatalf("%q %v: left out %d..%d, not at the right end", text, which, c.At, end)
		}
	}
}
