package live

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// A tap's mark reads back as written, before and after the tap records
// its pid, with dots in the socket's path; anything else is no tap's.
func TestTapMark(t *testing.T) {
	var gen [16]byte
	gen[0], gen[15] = 0xab, 0x01
	sock := "/tmp/a.b/tmux-mcp-taps-0-0000abcd/ab00000000000000.sock"
	base := tapMark(gen, sock)
	for _, tc := range []struct {
		mark string
		pid  int
	}{{base, 0}, {base + ".4242", 4242}} {
		info, ok := parseTapMark(tc.mark)
		if !ok || info.gen != gen || info.socket != sock || info.pid != tc.pid || info.baseMark() != base {
			t.Errorf("parseTapMark(%q) = %+v, %v", tc.mark, info, ok)
		}
	}
	for _, bad := range []string{"", "1234.abcd", "tap.xyz " + sock, base + ".x", strings.TrimSuffix(base, ".sock")} {
		if _, ok := parseTapMark(bad); ok {
			t.Errorf("parseTapMark(%q) accepted", bad)
		}
	}
	if !strings.HasPrefix(tapSocket(tapDir("/x/sock"), gen), tapDir("/x/sock")+"/") || tapDir("/x/sock") == tapDir("/y/sock") {
		t.Errorf("tap directories: %q %q", tapDir("/x/sock"), tapDir("/y/sock"))
	}
}

// Frames read back as written; an oversized one is refused.
func TestTapFrames(t *testing.T) {
	var b bytes.Buffer
	writeFrame(&b, tapText, []byte("hello"))
	writeFrame(&b, tapSkip, offsetPayload(1<<40))
	writeFrame(&b, tapEnd, nil)
	r := bufio.NewReader(&b)
	for _, want := range []struct {
		kind byte
		body string
	}{{tapText, "hello"}, {tapSkip, string(offsetPayload(1 << 40))}, {tapEnd, ""}} {
		kind, body, err := readFrame(r, nil)
		if err != nil || kind != want.kind || string(body) != want.body {
			t.Fatalf("readFrame = %c %q %v, want %c %q", kind, body, err, want.kind, want.body)
		}
	}
	b.Reset()
	b.Write([]byte{tapText, 0xff, 0xff, 0xff, 0xff})
	if _, _, err := readFrame(bufio.NewReader(&b), nil); err == nil {
		t.Error("a 4 GiB frame was accepted")
	}
}

// A mirror applies a tap's frames at the tap's offsets: a skip restarts
// it, markers are kept, and an end is reported.
func TestApplyTap(t *testing.T) {
	s := newStream(nil, "%1", 64)
	s.ring.Restart(10)
	s.applyTap(tapText, []byte("abc"))
	s.applyTap(tapSkip, offsetPayload(100))
	s.applyTap(tapText, []byte("xyz"))
	s.applyTap(tapMarker, []byte(`{"Nonce":"n1","Kind":"end","Status":3,"Offset":101}`))
	if s.End() != 103 {
		t.Fatalf("end %d, want 103", s.End())
	}
	c, _ := s.Read(10)
	if string(c.Text) != "xyz" || c.Missed != 90 {
		t.Errorf("Read(10) = %q missed %d, want xyz and 90", c.Text, c.Missed)
	}
	if m, ok := s.FindMarker("n1", "end"); !ok || m.Status != 3 || m.Offset != 101 {
		t.Errorf("marker: %+v %v", m, ok)
	}
	if !s.applyTap(tapEnd, nil) {
		t.Error("an end frame was not reported")
	}
}

// A TMPDIR holding what a tmux format or a pattern reads never reaches a
// tap's mark, which guarded commands match in formats.
func TestTapDirIsPlain(t *testing.T) {
	t.Setenv("TMUX_TMPDIR", "")
	t.Setenv("TMPDIR", "/tmp/t #(touch x) #{pane_id} %d *")
	if dir := tapDir("/s"); !plainPath(dir) || !strings.HasPrefix(dir, "/tmp/tmux-mcp-taps-") {
		t.Errorf("tapDir = %q, want a plain path in /tmp", dir)
	}
	t.Setenv("TMPDIR", "/var/tmp/plain_dir-1.x")
	if dir := tapDir("/s"); !strings.HasPrefix(dir, "/var/tmp/plain_dir-1.x/") {
		t.Errorf("tapDir = %q, want it in TMPDIR", dir)
	}
}
