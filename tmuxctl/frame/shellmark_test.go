package frame

import (
	"strings"
	"testing"
)

// scanAll scans chunks with one scanner and returns the marks found, with
// End made absolute.
func scanAll(chunks ...string) []Found {
	var s Scanner
	var all []Found
	base := 0
	for _, c := range chunks {
		for _, f := range s.Scan([]byte(c)) {
			f.End += base
			all = append(all, f)
		}
		base += len(c)
	}
	return all
}

func TestShellMarks(t *testing.T) {
	for _, c := range []struct {
		name, raw string
		want      []Marker // Nonce left out: always ShellNonce
	}{
		{"bel", "\x1b]133;A\a$ ", []Marker{{Kind: PromptStart}}},
		{"st", "\x1b]133;A\x1b\\$ ", []Marker{{Kind: PromptStart}}},
		{"a whole command", "\x1b]133;A\a$ \x1b]133;B\aecho hi\r\n\x1b]133;C\ahi\r\n\x1b]133;D;7\a",
			[]Marker{{Kind: PromptStart}, {Kind: CommandStart}, {Kind: OutputStart}, {Kind: CommandEnd, Status: 7}}},
		{"status with options", "\x1b]133;D;130;aid=12\x1b\\", []Marker{{Kind: CommandEnd, Status: 130}}},
		{"no status", "\x1b]133;D\a", []Marker{{Kind: CommandEnd, Status: NoStatus}}},
		{"bad status", "\x1b]133;D;x\a\x1b]133;D;-1\a\x1b]133;D;256\a", []Marker{
			{Kind: CommandEnd, Status: NoStatus}, {Kind: CommandEnd, Status: NoStatus}, {Kind: CommandEnd, Status: NoStatus}}},
		{"options", "\x1b]133;A;click_events=1\a\x1b]133;C;cmdline_url=echo%20hi\a",
			[]Marker{{Kind: PromptStart}, {Kind: OutputStart}}},
		{"mixed with frame markers", "\x1b]133;C\a" + Prefix + "n;end;3\a\x1b]133;D;3\a",
			[]Marker{{Kind: OutputStart}, {Nonce: "n", Kind: End, Status: 3}, {Kind: CommandEnd, Status: 3}}},
		{"unknown kind", "\x1b]133;P;k=i\a\x1b]133;\a\x1b]133;AB\a", nil},
		{"other osc", "\x1b]1337;A\a\x1b]13;A\a\x1b]0;title\a", nil},
		{"abandoned by an escape", "\x1b]133;A\x1b[0m\x1b]133;B\a", []Marker{{Kind: CommandStart}}},
		{"abandoned by CAN", "\x1b]133;A\x18\a", nil},
		{"too long", "\x1b]133;C;" + strings.Repeat("x", ShellMaxLen) + "\a\x1b]133;D;0\a",
			[]Marker{{Kind: CommandEnd, Status: 0}}},
		{"longest", "\x1b]133;C;" + strings.Repeat("x", ShellMaxLen-len(ShellPrefix)-3) + "\a", []Marker{{Kind: OutputStart}}},
		{"garbage", "\x1b\x1b]\x1b]1\x1b]133\x1b]133;\x1b]133;D;\xff\xfe\a\x00\x1b]133;B\a", []Marker{
			{Kind: CommandEnd, Status: NoStatus}, {Kind: CommandStart}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			whole := scanAll(c.raw)
			check(t, "whole", c.raw, whole, c.want)
			// Every way of cutting the output in two finds the same marks,
			// ending at the same places.
			for cut := 0; cut <= len(c.raw); cut++ {
				split := scanAll(c.raw[:cut], c.raw[cut:])
				if !same(split, whole) {
					t.Fatalf("cut at %d: %+v, whole: %+v", cut, split, whole)
				}
			}
			// And byte by byte.
			var bytes []string
			for i := range len(c.raw) {
				bytes = append(bytes, c.raw[i:i+1])
			}
			if got := scanAll(bytes...); !same(got, whole) {
				t.Fatalf("byte by byte: %+v, whole: %+v", got, whole)
			}
		})
	}
}

func check(t *testing.T, how, raw string, got []Found, want []Marker) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %q gave %+v, want %+v", how, raw, got, want)
	}
	for i, f := range got {
		w := want[i]
		if w.Nonce == "" {
			w.Nonce = ShellNonce
		}
		if f.Marker != w {
			t.Errorf("%s: mark %d is %+v, want %+v", how, i, f.Marker, w)
		}
		if f.End <= 0 || f.End > len(raw) || (raw[f.End-1] != '\a' && raw[f.End-1] != '\\') {
			t.Errorf("%s: mark %d ends at %d, not after a terminator", how, i, f.End)
		}
	}
}

func same(a, b []Found) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func FuzzShellScanner(f *testing.F) {
	f.Add([]byte("\x1b]133;A\a$ \x1b]133;D;7\x1b\\"), 5)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if cut < 0 || cut > len(data) {
			return
		}
		whole := scanAll(string(data))
		if split := scanAll(string(data[:cut]), string(data[cut:])); !same(whole, split) {
			t.Fatalf("whole found %+v, split at %d found %+v", whole, cut, split)
		}
	})
}
