package live

import (
	"runtime"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

func TestMarkersInStream(t *testing.T) {
	raw := "echo\r\n" + frame.Prefix + "n1;start\a" + "out\x1b[1mput\r\n" + frame.Prefix + "n1;end;7\a" + "$ "
	// Split everywhere: the markers and offsets must not depend on chunking.
	for cut := 0; cut <= len(raw); cut++ {
		for cut2 := cut; cut2 <= len(raw); cut2 += 7 {
			s := newStream(nil, "%1", 1<<10)
			s.appendOutput([]byte(raw[:cut]))
			s.appendOutput([]byte(raw[cut:cut2]))
			s.appendOutput([]byte(raw[cut2:]))
			start, ok1 := s.FindMarker("n1", frame.Start)
			end, ok2 := s.FindMarker("n1", frame.End)
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

// TestReadAfterOverrunStartsOnACharacter: when the ring has overrun a
// reader, the text it gets starts on a character, and the bytes skipped to
// get there count as missed.
func TestReadAfterOverrunStartsOnACharacter(t *testing.T) {
	s := newStream(nil, "%1", 8)
	s.appendOutput([]byte("ab─cd")) // "─" is 3 bytes: e2 94 80
	s.appendOutput([]byte("─e"))    // 11 bytes in all; the ring keeps the last 8
	c, err := s.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(c.Text) || int64(len(c.Text))+c.Missed != c.End {
		t.Fatalf("text %q, missed %d, end %d", c.Text, c.Missed, c.End)
	}
	if string(c.Text) != "cd─e" || c.Missed != 5 { // 3 overwritten + 2 continuation bytes
		t.Errorf("text %q missed %d, want \"cd─e\" and 5", c.Text, c.Missed)
	}
}

// TestMarkersNeverShowAnEndWithoutItsStart: a runner's start and end
// markers arriving in one read are seen together by Markers, however the
// look falls against the write. (Looking for the start, then for the end,
// as run_shell_command once did, finds the end alone when the read lands
// between the two looks: the command then seemed to have ended with no
// output, and that output to be incomplete.)
func TestMarkersNeverShowAnEndWithoutItsStart(t *testing.T) {
	s := newStream(nil, "%1", 1<<16)
	const n = 3000
	nonce := func(i int) string { return "n" + strconv.Itoa(i) }
	looking := make(chan int)
	go func() {
		for i := range looking { // each read lands while the reader looks
			s.appendOutput([]byte(frame.Prefix + nonce(i) + ";start\a" + "out\n" + frame.Prefix + nonce(i) + ";end;0\a$ "))
		}
	}()
	defer close(looking)
	for i := range n {
		looking <- i
		for {
			ms := s.Markers(nonce(i))
			if len(ms) == 0 {
				runtime.Gosched()
				continue
			}
			if len(ms) != 2 || ms[0].Kind != frame.Start || ms[1].Kind != frame.End {
				t.Fatalf("%s: markers %+v, want its start and then its end", nonce(i), ms)
			}
			break
		}
	}
}
