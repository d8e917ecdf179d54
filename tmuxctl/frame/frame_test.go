package frame

import (
	"fmt"
	"strings"
	"testing"
)

// printfed expands a Printf format the way the printf utility would, for
// the escapes and conversions it uses.
func printfed(format string, args ...any) string {
	f := strings.NewReplacer(`\033`, "\x1b", `\007`, "\a").Replace(format)
	return fmt.Sprintf(f, args...)
}

func TestPrintfAndScanRoundTrip(t *testing.T) {
	for _, c := range []struct {
		kind   Kind
		args   []any
		status int
		detail string
	}{
		{Start, nil, 0, ""},
		{Exec, nil, 0, ""},
		{End, []any{7}, 7, ""},
		{Exit, []any{143}, 143, ""},
		{Abort, []any{130, "INT"}, 130, "INT"},
		{Abort, []any{258, ""}, 258, ""},
		{Stop, []any{148, "12345"}, 148, "12345"},
	} {
		raw := "before" + printfed(Printf("n0nce", c.kind), c.args...) + "after"
		var s Scanner
		got := s.Scan([]byte(raw))
		if len(got) != 1 {
			t.Fatalf("%s: found %d markers in %q", c.kind, len(got), raw)
		}
		m := got[0]
		if m.Nonce != "n0nce" || m.Kind != c.kind || m.Status != c.status || m.Detail != c.detail || raw[m.End:] != "after" {
			t.Errorf("%s: got %+v (rest %q)", c.kind, m, raw[m.End:])
		}
	}
}

func TestScannerRejectsJunk(t *testing.T) {
	var m Scanner
	for _, junk := range []string{Prefix + "x\a", Prefix + "n;end;abc\a", Prefix + "n;end\a", Prefix + "n;start;1\a",
		Prefix + "n;abort;130\a", Prefix + "n;what;1\a", Prefix + ";start\a", Prefix + "n;stop;148;1;2\a", Prefix + "n;exec;0\a"} {
		if got := m.Scan([]byte(junk)); len(got) != 0 {
			t.Errorf("%q gave markers %+v", junk, got)
		}
	}
}

func FuzzScanner(f *testing.F) {
	f.Add([]byte(Prefix+"a;start\a"), 3)
	f.Add([]byte("x"+Prefix+"a;abort;130;INT\a"+Prefix+"a;end;0\a"), 20)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if cut < 0 || cut > len(data) {
			return
		}
		var whole, split Scanner
		a := whole.Scan(data)
		b := append(split.Scan(data[:cut]), split.Scan(data[cut:])...)
		if len(a) != len(b) {
			t.Fatalf("whole found %d markers, split at %d found %d", len(a), cut, len(b))
		}
	})
}
