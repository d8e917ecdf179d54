package live

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"
)

// cursorPattern is the pattern the seed schemas advertise for a cursor.
var cursorPattern = regexp.MustCompile(`^ltxc1\.[0-9a-f]{32}\.(?:0|[1-9][0-9]*)$`)

var testGen = [16]byte{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}

func TestFormatCursor(t *testing.T) {
	tests := []struct {
		gen  [16]byte
		off  int64
		want string
	}{
		{[16]byte{}, 0, "ltxc1.00000000000000000000000000000000.0"},
		{testGen, 7, "ltxc1.0123456789abcdeffedcba9876543210.7"},
		{testGen, 1048576, "ltxc1.0123456789abcdeffedcba9876543210.1048576"},
		{testGen, math.MaxInt64, "ltxc1.0123456789abcdeffedcba9876543210.9223372036854775807"},
	}
	for _, tt := range tests {
		got := formatCursor(tt.gen, tt.off)
		if got != tt.want {
			t.Errorf("formatCursor(%x, %d) = %q; want %q", tt.gen, tt.off, got, tt.want)
		}
		gen, off, err := parseCursor(got)
		if err != nil || gen != tt.gen || off != tt.off {
			t.Errorf("parseCursor(%q) = %x, %d, %v", got, gen, off, err)
		}
	}
}

func TestFormatCursorNegativePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("formatCursor with a negative offset did not panic")
		}
	}()
	formatCursor(testGen, -1)
}

func TestParseCursorRejects(t *testing.T) {
	const hex32 = "0123456789abcdeffedcba9876543210"
	for _, s := range []string{
		"",
		"ltxc1.",
		"ltxc1." + hex32,
		"ltxc1." + hex32 + ".",
		"ltxc2." + hex32 + ".0",
		"LTXC1." + hex32 + ".0",
		"ltxc1." + strings.ToUpper(hex32) + ".0",
		"ltxc1." + hex32[:31] + ".0",
		"ltxc1." + hex32 + "0.0",
		"ltxc1." + hex32[:31] + "g.0",
		"ltxc1." + hex32 + ".00",
		"ltxc1." + hex32 + ".01",
		"ltxc1." + hex32 + ".-1",
		"ltxc1." + hex32 + ".+1",
		"ltxc1." + hex32 + ". 1",
		"ltxc1." + hex32 + ".1 ",
		"ltxc1." + hex32 + ".1\n",
		"ltxc1." + hex32 + ".1.2",
		"ltxc1." + hex32 + ".1e3",
		"ltxc1." + hex32 + ".9223372036854775808", // MaxInt64 + 1
		"ltxc1." + hex32 + ".99999999999999999999999",
		" ltxc1." + hex32 + ".0",
		"ltxc1-" + hex32 + ".0",
		"ltxc1." + hex32 + "-0",
		"ltxc1.０123456789abcdeffedcba987654321.0", // a full-width digit
	} {
		if gen, off, err := parseCursor(s); !errors.Is(err, errBadCursor) {
			t.Errorf("parseCursor(%q) = %x, %d, %v; want errBadCursor", s, gen, off, err)
		}
	}
}

func FuzzParseCursor(f *testing.F) {
	for _, s := range []string{
		"ltxc1.0123456789abcdeffedcba9876543210.0",
		"ltxc1.0123456789abcdeffedcba9876543210.9223372036854775807",
		"ltxc1.0123456789abcdeffedcba9876543210.9223372036854775808",
		"ltxc1.0123456789abcdeffedcba9876543210.01",
		"ltxc1.0123456789ABCDEFFEDCBA9876543210.1",
		"ltxc1..1",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gen, off, err := parseCursor(s)
		if err != nil {
			if !errors.Is(err, errBadCursor) {
				t.Fatalf("parseCursor(%q): %v does not wrap errBadCursor", s, err)
			}
			// Only an offset too large for int64 may match the pattern and
			// still be refused.
			if cursorPattern.MatchString(s) && !errors.Is(err, ErrCursorBeyond) {
				t.Fatalf("parseCursor(%q) refused a cursor matching the pattern: %v", s, err)
			}
			return
		}
		if !cursorPattern.MatchString(s) {
			t.Fatalf("parseCursor(%q) accepted a string the pattern refuses", s)
		}
		if again := formatCursor(gen, off); again != s {
			t.Fatalf("parseCursor(%q) then formatCursor = %q", s, again)
		}
	})
}
