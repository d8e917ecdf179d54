package tmuxctl

import (
	"testing"
)

func TestMarkersInStream(t *testing.T) {
	raw := "echo\r\n" + markerPrefix + "n1;start\a" + "out\x1b[1mput\r\n" + markerPrefix + "n1;end;7\a" + "$ "
	// Split everywhere: the markers and offsets must not depend on chunking.
	for cut := 0; cut <= len(raw); cut++ {
		for cut2 := cut; cut2 <= len(raw); cut2 += 7 {
			s := newStream(nil, "%1", 1<<10)
			s.appendOutput([]byte(raw[:cut]))
			s.appendOutput([]byte(raw[cut:cut2]))
			s.appendOutput([]byte(raw[cut2:]))
			start, ok1 := s.FindMarker("n1", "start")
			end, ok2 := s.FindMarker("n1", "end")
			if !ok1 || !ok2 || start.Offset != 5 || end.Offset != int64(5+len("output\n")) || end.Status != 7 {
				t.Fatalf("cuts %d,%d: start %+v %v, end %+v %v", cut, cut2, start, ok1, end, ok2)
			}
			c, _ := s.Read(0)
			if string(c.Text) != "echo\noutput\n$ " {
				t.Fatalf("cuts %d,%d: text %q", cut, cut2, c.Text)
			}
		}
	}
}

func TestMarkerScannerRejectsJunk(t *testing.T) {
	var m markerScanner
	for _, junk := range []string{markerPrefix + "x\a", markerPrefix + "n;end;abc\a", markerPrefix + "n;end\a"} {
		if got := m.scan([]byte(junk)); len(got) != 0 {
			t.Errorf("%q gave markers %+v", junk, got)
		}
	}
}

func FuzzMarkerScanner(f *testing.F) {
	f.Add([]byte(markerPrefix+"a;start\a"), 3)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if cut < 0 || cut > len(data) {
			return
		}
		var whole, split markerScanner
		a := whole.scan(data)
		b := append(split.scan(data[:cut]), split.scan(data[cut:])...)
		if len(a) != len(b) {
			t.Fatalf("whole found %d markers, split at %d found %d", len(a), cut, len(b))
		}
	})
}
