package tmuxctl

import "testing"

// A hold value reads back to its mark and record, and only a mark whose
// last part starts with BriefHold is brief, whatever dots the instance's
// id holds.
func TestParseHoldBrief(t *testing.T) {
	for _, tc := range []struct {
		value, record string
		brief         bool
	}{
		{"123.9f2a.b-7216eab7 -", "-", true},
		{"123.9f2a.7216eab7 =on", "=on", false},
		{"123.b-9f2a.7216eab7 =failed", "=failed", false},
		{"123.b-7216 =off", "=off", true},
	} {
		h, ok := ParseHold(tc.value)
		if !ok {
			t.Fatalf("%q: not a hold", tc.value)
		}
		if h.Brief() != tc.brief || h.record() != tc.record || h.Mark+" "+h.record() != tc.value {
			t.Errorf("%q: brief %v record %q mark %q; want brief %v record %q", tc.value, h.Brief(), h.record(), h.Mark, tc.brief, tc.record)
		}
	}
}
