package live

import "testing"

// A ring restarted at an offset (a mirror joining a tap late) addresses
// its bytes by the tap's offsets, wraps correctly, and counts what lies
// before the restart as missed.
func TestRingRestart(t *testing.T) {
	r := newRing(8)
	r.Append([]byte("old"))
	r.Restart(100)
	if r.Start() != 100 || r.End() != 100 {
		t.Fatalf("after Restart(100): start %d end %d", r.Start(), r.End())
	}
	r.Append([]byte("abcdef"))
	data, missed, err := r.ReadFrom(100, -1)
	if err != nil || string(data) != "abcdef" || missed != 0 {
		t.Fatalf("ReadFrom(100) = %q, %d, %v", data, missed, err)
	}
	data, missed, _ = r.ReadFrom(60, -1)
	if string(data) != "abcdef" || missed != 40 {
		t.Fatalf("ReadFrom(60) = %q missed %d, want all, 40", data, missed)
	}
	r.Append([]byte("ghijk")) // wraps: keeps the newest 8
	data, missed, _ = r.ReadFrom(100, -1)
	if string(data) != "defghijk" || missed != 3 {
		t.Fatalf("after wrap ReadFrom(100) = %q missed %d", data, missed)
	}
	data, _, _ = r.ReadFrom(109, 2)
	if string(data) != "jk" {
		t.Fatalf("ReadFrom(109, 2) = %q", data)
	}
}
