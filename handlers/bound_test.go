package handlers

import (
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestKeepTail(t *testing.T) {
	for _, tc := range []struct {
		name               string
		lines              []string
		maxLines, maxBytes int
		want               tail
	}{
		{"fits", []string{"a", "b"}, 5, 100, tail{"a\nb", accounting{ReturnedBytes: 3}}},
		{"line limit keeps newest", []string{"1", "2", "3", "4"}, 2, 100, tail{"3\n4", accounting{DroppedLines: 2, ReturnedBytes: 3}}},
		{"byte limit keeps tail", []string{"hello", "world"}, 10, 7, tail{"o\nworld", accounting{OmittedBytes: 4, ReturnedBytes: 7, ByteClamped: true}}},
		{"cut lands on a rune start", []string{"ééé"}, 10, 3, tail{"é", accounting{OmittedBytes: 4, ReturnedBytes: 2, ByteClamped: true}}},
		{"invalid UTF-8 replaced before counting", []string{"a\xffb"}, 10, 100, tail{"a\uFFFDb", accounting{ReturnedBytes: 5}}},
		{"empty", nil, 10, 100, tail{}},
		{"zero bytes", []string{"abc"}, 10, 0, tail{"", accounting{OmittedBytes: 3, ByteClamped: true}}},
	} {
		got := keepTail(tc.lines, tc.maxLines, tc.maxBytes)
		if got != tc.want {
			t.Errorf("%s: keepTail = %+v, want %+v", tc.name, got, tc.want)
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

func TestClampMs(t *testing.T) {
	l := Limits{WaitCeiling: 50 * time.Second}
	for _, tc := range []struct {
		ms   float64
		want time.Duration
	}{
		{1500, 1500 * time.Millisecond},
		{0.5, 500 * time.Microsecond},
		{50000, 50 * time.Second},
		{9007199254740991, 50 * time.Second},
		{1e300, 50 * time.Second},
		{math.Inf(1), 50 * time.Second},
		{-5, 0},
	} {
		if got := l.clampMs(tc.ms); got != tc.want {
			t.Errorf("clampMs(%v) = %v, want %v", tc.ms, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	l := Limits{MaxLines: 200}
	ten, big := 10, 1000
	if l.lines(nil) != 200 || l.lines(&ten) != 10 || l.lines(&big) != 200 {
		t.Error("lines: nil is the server limit; a request is capped at it")
	}
}

// TestAccountingThen checks that text bounded in steps counts every cut
// once and returns what the last step kept.
func TestAccountingThen(t *testing.T) {
	window := accounting{DroppedLines: 2, OmittedBytes: 10}.missing(5)
	kept := keepStreamTail([]byte("a\nb\nc\n"), 2, 100)
	got := window.then(kept.accounting)
	want := accounting{DroppedLines: 3, OmittedBytes: 12, MissedBytes: 5, ReturnedBytes: 4}
	if kept.Text != "b\nc\n" || got != want {
		t.Errorf("then = %+v (text %q), want %+v (text %q)", got, kept.Text, want, "b\nc\n")
	}
}
