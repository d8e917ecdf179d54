package live

import (
	"bytes"
	"testing"
)

// filterTests were checked against tmux 3.3a: printed into a pane, each
// input shows the expected text on the screen (capture-pane), apart from
// what a stream cannot do — carriage return, backspace and cursor motion
// overwriting text, ESC c and ESC # 8 clearing and filling the screen — and
// invalid UTF-8, which tmux does not display and the filter passes on.
var filterTests = []struct {
	name, in, want string
}{
	{"plain text", "hello, world", "hello, world"},
	{"empty", "", ""},
	{"CRLF", "a\r\nb\r\n", "a\nb\n"},
	{"tmux onlcr doubles a printed CR", "\r\r\n", "\n"},
	{"lone CR joins", "10%\r20%\r", "10%20%"},
	{"tab kept", "a\tb", "a\tb"},
	{"C0 and DEL dropped", "a\x00b\x07c\x08d\x7fe\x0ef\x0fg\x1ch\x05i", "abcdefghi"},
	{"VT and FF are line feeds", "a\vb\fc", "a\nb\nc"},
	{"backspace not applied", "ab\x08c", "abc"},

	// CSI.
	{"SGR", "\x1b[1;31mred\x1b[0m plain", "red plain"},
	{"SGR colon", "\x1b[38:2:1:2:3mX\x1b[m", "X"},
	{"private modes", "\x1b[?2004h\x1b[?25lprompt$ \x1b[?25h", "prompt$ "},
	{"private marker >", "\x1b[>4;1mX\x1b[>c", "X"},
	{"intermediate", "\x1b[2 qX\x1b[!pY", "XY"},
	{"cursor moves", "\x1b[H\x1b[2J\x1b[10;20Htext\x1b[K", "text"},
	{"CSI acts on newline inside", "\x1b[1\n2mX", "\nX"},
	{"CSI with a bad parameter still ends at a final byte", "\x1b[1?2;3mX", "X"},
	{"CSI ignores high bytes", "\x1b[1\xc3\xa9mX", "X"},
	{"CAN abandons CSI", "\x1b[12\x18mX", "mX"},
	{"SUB abandons CSI", "\x1b[12\x1amX", "mX"},
	{"ESC restarts inside CSI", "\x1b[12\x1b[3mX", "X"},

	// OSC.
	{"OSC ended by BEL", "\x1b]0;title\x07text", "text"},
	{"OSC ended by ST", "\x1b]8;;http://example.com/\x1b\\link\x1b]8;;\x1b\\", "link"},
	{"OSC swallows controls", "\x1b]0;a\nb\tc\rd\x07e", "e"},
	{"OSC ended by another escape", "\x1b]0;t\x1b[1mX", "X"},
	{"OSC 52 clipboard", "\x1b]52;c;aGVsbG8=\x07after", "after"},
	{"OSC 7 then prompt", "\x1b]7;file://host/home/u\x07\x1b[?2004hu@host:~$ ", "u@host:~$ "},
	{"OSC keeps UTF-8 inside", "\x1b]0;\xc3\xa9t\xc3\xa9\x07ok", "ok"},
	{"SUB abandons OSC", "\x1b]0;t\x1atext", "text"},

	// DCS, SOS, PM, APC, screen title.
	{"DCS sixel", "\x1bPq#0;2;0;0;0#1!14~-\x1b\\after", "after"},
	{"DCS data holds any byte", "\x1bPq\x18\x1a\x07\n\xc3x\x1b\\Y", "Y"},
	{"DCS tmux passthrough with doubled ESC", "\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\after", "after"},
	{"DCS ESC ESC backslash does not end", "\x1bPq\x1b\x1b\\still\x1b\\Y", "Y"},
	{"DCS header ignores controls", "\x1bP1\n;2|data\x1b\\Y", "Y"},
	{"DCS colon is ignored to ESC", "\x1bP:foo\x1bZbar", "bar"},
	{"DCS misplaced private marker is ignored to ESC", "\x1bP1;2?x\x1bZbar", "bar"},
	{"DCS intermediate then parameter is ignored", "\x1bP $1x\x1bZbar", "bar"},
	{"DCS abandoned in its header", "\x1bP12\x18text", "text"},
	{"APC kitty graphics", "\x1b_Gf=100,a=T;AAAA\x1b\\X", "X"},
	{"APC not ended by BEL", "\x1b_a\x07b\x1b\\c", "c"},
	{"PM and SOS", "\x1b^pm\x1b\\a\x1bXsos\x1b\\b", "ab"},
	{"screen title", "\x1bktitle\x1b\\x", "x"},

	// Other escapes.
	{"two-byte escapes", "\x1b7a\x1b8b\x1b=c\x1b>d\x1bMe\x1bcf\x1bDg\x1bEh", "abcdefgh"},
	{"charset designations", "\x1b(Bx\x1b)0y\x1b#8z\x1b%Gw", "xyzw"},
	{"ST alone", "a\x1b\\b", "ab"},
	{"ESC acts on newline", "\x1b\n[1mX", "\nX"},
	{"ESC ignores high bytes", "\x1b\xc3\xa9[1mX", "X"},
	{"unfinished escape at the end", "abc\x1b", "abc"},
	{"unfinished CSI at the end", "abc\x1b[1;3", "abc"},

	// Bytes 0x80-0xff.
	{"UTF-8", "héllo wörld ✓ 日本", "héllo wörld ✓ 日本"},
	{"raw 0x9b is not CSI", "\x9b31mX", "\x9b31mX"},
	{"0x9b as a UTF-8 continuation byte", "⌛ done", "⌛ done"},
	{"invalid UTF-8 passes through", "\xff\xfe\xc3", "\xff\xfe\xc3"},

	// Real pane output from tmux 3.3a, unescaped from %output.
	{"tmux 3.3a printf", "\r\r\n\\\x01\xc3\xa9\x9b\xff\x7f end\r\n", "\n\\é\x9b\xff end\n"},
	{"tmux 3.3a title and colours", "A\x1b]0;title\x07B\x1b[31mC\x1b[0m\tD\x7f\x08E\r\n", "ABC\tDE\n"},
}

func TestEscapeFilter(t *testing.T) {
	for _, tt := range filterTests {
		var f escapeFilter
		if got := string(f.Write(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("%s: Write(%q) = %q; want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestEscapeFilterSplit feeds every test input split at every position,
// and byte by byte, and expects what one write gives.
func TestEscapeFilterSplit(t *testing.T) {
	for _, tt := range filterTests {
		in := []byte(tt.in)
		for i := 0; i <= len(in); i++ {
			var f escapeFilter
			got := f.Write(nil, in[:i])
			got = f.Write(got, in[i:])
			if string(got) != tt.want {
				t.Errorf("%s: split at %d: %q; want %q", tt.name, i, got, tt.want)
			}
		}
		var f escapeFilter
		var got []byte
		for i := range in {
			got = f.Write(got, in[i:i+1])
		}
		if string(got) != tt.want {
			t.Errorf("%s: byte by byte: %q; want %q", tt.name, got, tt.want)
		}
	}
}

func TestEscapeFilterAppends(t *testing.T) {
	var f escapeFilter
	got := f.Write([]byte("kept:"), []byte("\x1b[1mnew\r\n"))
	if string(got) != "kept:new\n" {
		t.Errorf("got %q; want %q", got, "kept:new\n")
	}
}

func TestEscapeFilterReset(t *testing.T) {
	var f escapeFilter
	f.Write(nil, []byte("\x1b]0;a title cut short by a gap"))
	f.Reset()
	if got := f.Write(nil, []byte("visible")); string(got) != "visible" {
		t.Errorf("after Reset: %q; want %q", got, "visible")
	}
}

func TestEscapeFilterAllocs(t *testing.T) {
	src := benchmarkInput()
	dst := make([]byte, 0, len(src))
	var f escapeFilter
	if n := testing.AllocsPerRun(100, func() { dst = f.Write(dst[:0], src) }); n != 0 {
		t.Errorf("Write allocates %v times per call; want 0", n)
	}
}

// benchmarkInput is about 1 MiB of coloured log output, with a title
// change and a prompt now and then.
func benchmarkInput() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 1<<20; i++ {
		b.WriteString("\x1b[2m2024-06-01T12:00:00.123Z\x1b[0m \x1b[32mINFO\x1b[0m request served " +
			"\x1b[1mpath\x1b[0m=/api/v1/items/42 status=200 dur=1.2ms ✓ héllo\r\n")
		if i%50 == 0 {
			b.WriteString("\x1b]0;user@host: ~/src\x07\x1b[?2004h\x1b[01;32muser@host\x1b[00m:\x1b[01;34m~/src\x1b[00m$ ls\r\n\x1b[?2004l\r")
		}
	}
	return b.Bytes()
}

func BenchmarkEscapeFilter(b *testing.B) {
	src := benchmarkInput()
	dst := make([]byte, 0, len(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var f escapeFilter
	for b.Loop() {
		dst = f.Write(dst[:0], src)
	}
}

// BenchmarkEscapeFilterChunks feeds the same input in 4 KiB pieces, about
// the size tmux 3.3a puts in one %output line.
func BenchmarkEscapeFilterChunks(b *testing.B) {
	src := benchmarkInput()
	dst := make([]byte, 0, 8192)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var f escapeFilter
	for b.Loop() {
		for p := src; len(p) > 0; {
			n := min(len(p), 4096)
			dst = f.Write(dst[:0], p[:n])
			p = p[n:]
		}
	}
}

func FuzzEscapeFilter(f *testing.F) {
	for _, tt := range filterTests {
		f.Add([]byte(tt.in), []byte{1, 3, 7})
	}
	f.Fuzz(func(t *testing.T, in, cuts []byte) {
		var one escapeFilter
		want := one.Write(nil, in)

		if len(want) > len(in) {
			t.Fatalf("output %q longer than input %q", want, in)
		}
		for _, c := range want {
			if c == esc || c == '\r' || c == del || (c < 0x20 && c != '\n' && c != '\t') {
				t.Fatalf("output %q of %q holds control byte %#x", want, in, c)
			}
		}
		// Text free of controls passes untouched.
		if bytes.IndexFunc(in, func(r rune) bool { return r < 0x20 || r == del }) < 0 && !bytes.Equal(want, in) {
			t.Fatalf("plain %q came out as %q", in, want)
		}

		// Splitting anywhere changes nothing.
		var split escapeFilter
		var got []byte
		rest := in
		for _, c := range cuts {
			n := min(int(c), len(rest))
			got = split.Write(got, rest[:n])
			rest = rest[n:]
		}
		got = split.Write(got, rest)
		if !bytes.Equal(got, want) {
			t.Fatalf("input %q cut by %v: %q; in one write: %q", in, cuts, got, want)
		}

		// Whatever state the input leaves behind, two STs end it: the
		// first may only finish a DCS's "ESC ESC", which does not end the
		// DCS. Nothing is held back, so the earlier text is unchanged.
		var after escapeFilter
		more := after.Write(nil, append(bytes.Clone(in), "\x1b\\\x1b\\z"...))
		if !bytes.Equal(more, append(bytes.Clone(want), 'z')) {
			t.Fatalf("input %q then ST ST z: %q", in, more)
		}
	})
}
