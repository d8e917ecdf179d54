package tmuxctl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// Lines below marked "tmux 3.3a" were captured from `tmux -C attach` on a
// private tmux 3.3a server; testdata/control-3.3a.txt holds whole captures.

func TestParseControlLine(t *testing.T) {
	tests := []struct {
		line string
		want controlEvent
	}{
		// tmux 3.3a, after printf '\r\n\\\x01é\x9b\xff\x7f end\n' in a pane:
		// bytes below 0x20 and "\" are octal, everything else raw.
		{"%output %1 \\015\\015\\012\\134\\001\xc3\xa9\x9b\xff\x7f end\\015\\012", controlEvent{
			Kind: kindOutput, Pane: "%1", Data: []byte("\r\r\n\\\x01\xc3\xa9\x9b\xff\x7f end\r\n"),
		}},
		// tmux 3.3a: escapes, tab and backspace as octal, DEL raw.
		{"%output %0 A\\033]0;title\\007B\\033[31mC\\033[0m\\011D\x7f\\010E\\015\\012", controlEvent{
			Kind: kindOutput, Pane: "%0", Data: []byte("A\x1b]0;title\x07B\x1b[31mC\x1b[0m\tD\x7f\bE\r\n"),
		}},
		{"%output %0 x", controlEvent{Kind: kindOutput, Pane: "%0", Data: []byte("x")}},
		{"%output %12   two leading spaces kept", controlEvent{Kind: kindOutput, Pane: "%12", Data: []byte("  two leading spaces kept")}},
		{"%output %3 ", controlEvent{Kind: kindOutput, Pane: "%3", Data: []byte{}}},
		{"%output %3", controlEvent{Kind: kindOutput, Pane: "%3", Data: []byte{}}},
		// tmux 3.3a with pause-after set.
		{"%extended-output %1 2 : y\\015\\012y\\015\\012", controlEvent{
			Kind: kindExtendedOutput, Pane: "%1", Age: 2, Data: []byte("y\r\ny\r\n"),
		}},
		{"%extended-output %1 0 future fields : a : b", controlEvent{
			Kind: kindExtendedOutput, Pane: "%1", Data: []byte("a : b"),
		}},
		{"%extended-output %1 0 :", controlEvent{Kind: kindExtendedOutput, Pane: "%1", Data: []byte{}}},
		{"%extended-output %1 0 :  x", controlEvent{Kind: kindExtendedOutput, Pane: "%1", Data: []byte(" x")}},

		// tmux 3.3a: the attach's own block has flags 0, later commands 1.
		{"%begin 1795998748 265 0", controlEvent{Kind: kindBegin, Time: 1795998748, Number: 265, Flags: 0, Raw: "%begin 1795998748 265 0"}},
		{"%end 1795998749 270 1", controlEvent{Kind: kindEnd, Time: 1795998749, Number: 270, Flags: 1, Raw: "%end 1795998749 270 1"}},
		{"%error 1795998749 272 1", controlEvent{Kind: kindError, Time: 1795998749, Number: 272, Flags: 1, Raw: "%error 1795998749 272 1"}},
		{"%begin 1 2 3 future", controlEvent{Kind: kindBegin, Time: 1, Number: 2, Flags: 3, Raw: "%begin 1 2 3 future"}},

		{"%pause %0", controlEvent{Kind: kindPause, Pane: "%0", Raw: "%pause %0"}},
		{"%continue %0", controlEvent{Kind: kindContinue, Pane: "%0", Raw: "%continue %0"}},
		{"%exit", controlEvent{Kind: kindExit, Raw: "%exit"}},
		{"%exit too far behind", controlEvent{Kind: kindExit, Name: "too far behind", Raw: "%exit too far behind"}},
		{"%window-add @1", controlEvent{Kind: kindWindowAdd, Window: "@1", Raw: "%window-add @1"}},
		{"%window-close @4", controlEvent{Kind: kindWindowClose, Window: "@4", Raw: "%window-close @4"}},
		{"%unlinked-window-add @2", controlEvent{Kind: kindUnlinkedWindowAdd, Window: "@2", Raw: "%unlinked-window-add @2"}},
		{"%unlinked-window-close @2", controlEvent{Kind: kindUnlinkedWindowClose, Window: "@2", Raw: "%unlinked-window-close @2"}},
		{"%unlinked-window-renamed @2 bash", controlEvent{Kind: kindUnlinkedWindowRenamed, Window: "@2", Name: "bash", Raw: "%unlinked-window-renamed @2 bash"}},
		{"%window-renamed @0 [tmux]", controlEvent{Kind: kindWindowRenamed, Window: "@0", Name: "[tmux]", Raw: "%window-renamed @0 [tmux]"}},
		// tmux 3.3a after rename-window "a\\b\001c é": the name as tmux
		// stores it, already made printable, is passed on untouched.
		{"%window-renamed @0 a\\\\b\\001c \xc3\xa9", controlEvent{Kind: kindWindowRenamed, Window: "@0", Name: "a\\\\b\\001c é", Raw: "%window-renamed @0 a\\\\b\\001c é"}},
		{"%window-renamed @0 ", controlEvent{Kind: kindWindowRenamed, Window: "@0", Raw: "%window-renamed @0 "}},
		{"%window-pane-changed @0 %1", controlEvent{Kind: kindWindowPaneChanged, Window: "@0", Pane: "%1", Raw: "%window-pane-changed @0 %1"}},
		{"%layout-change @0 c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1] c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1] *", controlEvent{
			Kind: kindLayoutChange, Window: "@0", Layout: "c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1]",
			Raw: "%layout-change @0 c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1] c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1] *",
		}},
		{"%pane-mode-changed %1", controlEvent{Kind: kindPaneModeChanged, Pane: "%1", Raw: "%pane-mode-changed %1"}},
		{"%session-changed $0 one", controlEvent{Kind: kindSessionChanged, Session: "$0", Name: "one", Raw: "%session-changed $0 one"}},
		// tmux 3.3a sends the id too, which its manual leaves out.
		{"%session-renamed $0 new name", controlEvent{Kind: kindSessionRenamed, Session: "$0", Name: "new name", Raw: "%session-renamed $0 new name"}},
		{"%session-window-changed $0 @1", controlEvent{Kind: kindSessionWindowChanged, Session: "$0", Window: "@1", Raw: "%session-window-changed $0 @1"}},
		{"%sessions-changed", controlEvent{Kind: kindSessionsChanged, Raw: "%sessions-changed"}},
		{"%client-detached client-12471", controlEvent{Kind: kindClientDetached, Client: "client-12471", Raw: "%client-detached client-12471"}},
		{"%client-session-changed client-12471 $1 other", controlEvent{
			Kind: kindClientSessionChanged, Client: "client-12471", Session: "$1", Name: "other",
			Raw: "%client-session-changed client-12471 $1 other",
		}},
		{"%subscription-changed sub1 $0 @0 0 %0 : sleep", controlEvent{
			Kind: kindSubscriptionChanged, Name: "sub1", Session: "$0", Window: "@0", Pane: "%0", Value: "sleep",
			Raw: "%subscription-changed sub1 $0 @0 0 %0 : sleep",
		}},
		// The session-wide and window-wide forms in the tmux 3.3a binary.
		{"%subscription-changed s $1 - - - : a b", controlEvent{
			Kind: kindSubscriptionChanged, Name: "s", Session: "$1", Value: "a b", Raw: "%subscription-changed s $1 - - - : a b",
		}},
		{"%subscription-changed w $1 @2 3 - : ", controlEvent{
			Kind: kindSubscriptionChanged, Name: "w", Session: "$1", Window: "@2", Raw: "%subscription-changed w $1 @2 3 - : ",
		}},

		// Notifications from other tmux versions are not errors.
		{"%paste-buffer-changed buffer0", controlEvent{Kind: kindOther, Name: "paste-buffer-changed", Raw: "%paste-buffer-changed buffer0"}},
		{"%config-error /x:1: oops", controlEvent{Kind: kindOther, Name: "config-error", Raw: "%config-error /x:1: oops"}},
		{"%message hi", controlEvent{Kind: kindOther, Name: "message", Raw: "%message hi"}},
	}
	for _, tt := range tests {
		got, err := parseControlLine([]byte(tt.line))
		if err != nil {
			t.Errorf("parseControlLine(%q): %v", tt.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseControlLine(%q)\n got %+v\nwant %+v", tt.line, got, tt.want)
		}
	}
}

func TestParseControlLineErrors(t *testing.T) {
	for _, line := range []string{
		"",
		"%",
		"x",
		"one:0: bash* (1 panes) [80x24] ", // command output outside a block
		"%output",
		"%output 1 x",
		"%output %x y",
		"%output % y",
		"%output %1 \\",
		"%output %1 a\\01",
		"%output %1 \\400",
		"%output %1 \\08x",
		"%output %1 \\x41",
		"%extended-output %1 2 y",
		"%extended-output %1 x : y",
		"%extended-output %1",
		"%extended-output %1 2 :y", // ":y" is not the separator field
		"%begin",
		"%begin 1 2",
		"%begin 1 2 x",
		"%begin -1 2 3",
		"%begin +1 2 3",
		"%begin 99999999999999999999 2 3",
		"%end 1 2 4294967296",
		"%pause",
		"%pause 0",
		"%continue @0",
		"%window-add %1",
		"%window-close",
		"%window-renamed",
		"%window-pane-changed @0",
		"%window-pane-changed @0 @1",
		"%layout-change",
		"%session-changed one",
		"%session-renamed new name",
		"%session-window-changed $0",
		"%client-session-changed c one",
		"%subscription-changed s $1 - - -",
		"%subscription-changed s @1 - - - : v",
		"%subscription-changed s $1 x - - : v",
		"%subscription-changed s $1 - - y : v",
	} {
		ev, err := parseControlLine([]byte(line))
		var se *controlSyntaxError
		if !errors.As(err, &se) {
			t.Errorf("parseControlLine(%q) = %+v, %v; want a *controlSyntaxError", line, ev, err)
		}
	}
}

func TestAppendUnescaped(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{`\000\001\037\134`, "\x00\x01\x1f\\"},
		{`\377`, "\xff"},
		{`a\015\012b`, "a\r\nb"},
		{"\x7f\x80\xff", "\x7f\x80\xff"},
		{"raw\tcontrol", "raw\tcontrol"}, // tmux never sends it, but it is not ambiguous
	}
	for _, tt := range tests {
		got, err := appendUnescaped([]byte("pre:"), []byte(tt.in))
		if err != nil || string(got) != "pre:"+tt.want {
			t.Errorf("appendUnescaped(%q) = %q, %v; want %q", tt.in, got, err, "pre:"+tt.want)
		}
	}
}

// summary is a one-line description of a message, for comparing a whole
// transcript at a glance.
func summary(m controlMessage) string {
	if r := m.Reply; r != nil {
		status := "end"
		if r.Failed {
			status = "error"
		}
		return fmt.Sprintf("reply %d %d %d %s %q", r.Time, r.Number, r.Flags, status, r.Lines)
	}
	e := m.Event
	var b strings.Builder
	b.WriteString(e.Kind)
	for _, f := range []struct{ k, v string }{
		{"pane", string(e.Pane)}, {"window", string(e.Window)}, {"session", string(e.Session)},
		{"client", e.Client}, {"name", e.Name}, {"value", e.Value}, {"layout", e.Layout},
	} {
		if f.v != "" {
			fmt.Fprintf(&b, " %s=%q", f.k, f.v)
		}
	}
	if e.Kind == kindOutput || e.Kind == kindExtendedOutput {
		fmt.Fprintf(&b, " age=%d data=%q", e.Age, trimMiddle(e.Data))
	}
	return b.String()
}

func trimMiddle(b []byte) []byte {
	if len(b) <= 40 {
		return b
	}
	return append(append(b[:20:20], "…"...), b[len(b)-20:]...)
}

// TestControlReaderTranscript reads seven whole tmux 3.3a control-mode
// sessions (testdata/control-3.3a.txt; the long runs of %extended-output
// cut to their first line) and checks every reply and notification.
func TestControlReaderTranscript(t *testing.T) {
	f, err := os.Open("testdata/control-3.3a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// One byte at a time, to exercise lines that span reads.
	cr := newControlReader(iotest.OneByteReader(f))
	var got []string
	for {
		m, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d messages: %v", len(got), err)
		}
		got = append(got, summary(m))
	}
	want := strings.Split(strings.TrimSpace(transcriptWant), "\n")
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = strings.TrimSpace(want[i])
		}
		if g != w {
			t.Errorf("message %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

const transcriptWant = `
reply 1795998748 265 0 end []
session-changed session="$0" name="one"
reply 1795998749 270 1 end ["%0 @0 $0"]
reply 1795998749 271 1 end ["x"]
reply 1795998749 272 1 error ["parse error: unknown command: bogus-command"]
window-pane-changed pane="%1" window="@0"
layout-change window="@0" layout="c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1]"
output pane="%1" age=0 data="\r\r\n\\\x01é\x9b\xff\x7f end\r\n"
window-renamed window="@0" name="sleep"
session-window-changed window="@1" session="$0"
window-add window="@1"
window-renamed window="@1" name="renamed"
unlinked-window-add window="@2"
sessions-changed
unlinked-window-renamed window="@2" name="bash"
sessions-changed
unlinked-window-close window="@2"
pane-mode-changed pane="%1"
session-window-changed window="@0" session="$0"
unlinked-window-close window="@1"
window-renamed window="@0" name="[tmux]"
reply 1795998750 302 1 end []
pane-mode-changed pane="%1"
extended-output pane="%1" age=2 data="y\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r…\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r\n"
window-renamed window="@0" name="sleep"
reply 1795998753 310 1 error ["parse error: syntax error"]
reply 1795998753 311 1 end []
exit
reply 1795998763 265 0 end []
session-changed session="$0" name="one"
reply 1795998763 270 1 end []
reply 1795998763 271 1 end []
session-renamed session="$0" name="new name"
reply 1795998763 273 1 end []
reply 1795998763 274 1 end ["a\\001b\\\\c"]
reply 1795998763 275 1 end []
extended-output pane="%0" age=1 data="y\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r…\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r\n"
pause pane="%0"
reply 1795998770 278 1 end ["%continue %0"]
sessions-changed
exit
reply 1795998784 269 0 end []
session-changed session="$0" name="one"
reply 1795998784 274 1 end ["a\x01b\x1b[1mc\\\\d\\\\e"]
reply 1795998784 275 1 end ["30nd 1 2 3"]
reply 1795998784 276 1 end ["é\\t"]
reply 1795998784 277 1 end ["one:0: bash* (1 panes) [80x24] " "other:0: sleep* (1 panes) [80x24] "]
reply 1795998784 278 1 end []
reply 1795998784 279 1 end []
session-window-changed window="@2" session="$0"
window-add window="@2"
subscription-changed pane="%0" window="@0" session="$0" name="sub1" value="sleep"
reply 1795998785 282 1 end []
session-window-changed window="@0" session="$0"
unlinked-window-close window="@2"
client-session-changed session="$1" client="client-12471" name="other"
client-detached client="client-12471"
reply 1795998786 291 1 end []
session-changed session="$1" name="other"
reply 1795998786 294 1 end ["client-12464"]
reply 1795998786 295 1 end []
exit
reply 1795998794 264 0 end []
session-changed session="$0" name="one"
reply 1795998794 269 1 end ["%end 1 2 3"]
reply 1795998794 270 1 end []
reply 1795998794 271 1 end ["line1\\nline2"]
reply 1795998794 272 1 end ["x" "y"]
reply 1795998794 273 1 end [""]
reply 1795998794 274 1 end ["trail  "]
window-renamed window="@0" name="a\\\\b c%%"
output pane="%0" age=0 data="x"
output pane="%0" age=0 data="A\x1b]0;title\aB\x1b[31mC\x1b[0m\tD\x7f\bE\r\n"
sessions-changed
exit
reply 1795998798 265 0 end []
session-changed session="$0" name="one"
reply 1795998798 270 1 end []
reply 1795998798 271 1 end ["a\\\\b\\001c é"]
reply 1795998798 272 1 end []
window-renamed window="@0" name="a\\\\b\\001c é"
session-renamed session="$0" name="s\\\\x y"
sessions-changed
exit
reply 1795998924 265 0 end []
session-changed session="$0" name="one"
reply 1795998925 270 1 end []
reply 1795998925 271 1 end ["%pause %0"]
reply 1795998925 272 1 end ["%continue %0"]
reply 1795998925 273 1 end []
reply 1795998925 274 1 end []
reply 1795998925 275 1 error ["parse error: syntax error"]
reply 1795998925 276 1 end []
reply 1795998925 277 1 end ["after"]
reply 1795998925 278 1 end []
reply 1795998925 279 1 end ["%pause %0"]
window-renamed window="@0" name="sleep"
reply 1795998925 281 1 end []
sessions-changed
exit
reply 1795999008 265 0 end []
session-changed session="$0" name="one"
reply 1795999008 270 1 end ["%0"]
reply 1795999008 271 1 error ["parse error: syntax error"]
reply 1795999008 272 1 end []
reply 1795999008 273 1 error ["parse error: syntax error"]
reply 1795999008 274 1 error ["parse error: syntax error"]
reply 1795999008 275 1 end ["a:b"]
reply 1795999008 276 1 error ["parse error: syntax error"]
sessions-changed
exit
`

func TestControlReader(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{
			name:  "a line like %end inside a block is output",
			input: "%begin 5 7 1\n%end 5 7 0\n%end 5 8 1\n%end 1 2 3\n%error 6 7 1\n%begin 5 7 1\n%end 5 7 1\n",
			want:  []string{`reply 5 7 1 end ["%end 5 7 0" "%end 5 8 1" "%end 1 2 3" "%error 6 7 1" "%begin 5 7 1"]`},
		},
		{
			name:  "a malformed line is skipped and reading goes on",
			input: "%output %x bad\n%output %1 ok\ngarbage\n%window-add @3\n",
			want:  []string{"err:bad pane id", `output pane="%1" age=0 data="ok"`, "err:not a notification", `window-add window="@3"`},
		},
		{
			name:  "an %end with no %begin is an error, then reading goes on",
			input: "%end 1 2 1\n%error 1 2 1\n%sessions-changed\n",
			want:  []string{"err:%end without %begin", "err:%error without %begin", "sessions-changed"},
		},
		{
			name:  "an error block keeps tmux's message",
			input: "%begin 1 2 1\nparse error: syntax error\n%error 1 2 1\n",
			want:  []string{`reply 1 2 1 error ["parse error: syntax error"]`},
		},
		{
			name:  "EOF inside a block",
			input: "%begin 1 2 1\nhalf\n",
			want:  []string{"err:" + io.ErrUnexpectedEOF.Error()},
		},
		{
			name:  "EOF inside a line",
			input: "%sessions-changed\n%output %1 abc",
			want:  []string{"sessions-changed", "err:" + io.ErrUnexpectedEOF.Error()},
		},
		{
			name:  "empty lines in a block are output",
			input: "%begin 1 2 1\n\n\n%end 1 2 1\n",
			want:  []string{`reply 1 2 1 end ["" ""]`},
		},
		{
			name:  "carriage returns are not stripped",
			input: "%begin 1 2 1\nx\r\n%end 1 2 1\n",
			want:  []string{`reply 1 2 1 end ["x\r"]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readAll(newControlReader(strings.NewReader(tt.input)))
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				// An expected error need only start the error's text.
				ok = got[i] == tt.want[i] || strings.HasPrefix(tt.want[i], "err:") && strings.HasPrefix(got[i], tt.want[i])
			}
			if !ok {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// readAll reads cr to the end, summarising each message and error; a
// syntax error lets it go on, any other error stops it.
func readAll(cr *controlReader) []string {
	var out []string
	for {
		m, err := cr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "err:"+errorSubstring(err))
			var se *controlSyntaxError
			if !errors.As(err, &se) {
				return out
			}
			continue
		}
		out = append(out, summary(m))
	}
}

// errorSubstring is the part of an error the tests compare: the reason of
// a syntax error, else the whole text.
func errorSubstring(err error) string {
	var se *controlSyntaxError
	if errors.As(err, &se) {
		if i := strings.LastIndex(se.Reason, ": "); i >= 0 && strings.HasPrefix(se.Reason, "%") {
			return se.Reason[i+2:]
		}
		return se.Reason
	}
	return err.Error()
}

func TestControlReaderLongLines(t *testing.T) {
	long := strings.Repeat("a", 200)
	input := "%begin 1 2 1\nshort\n" + long + "\n%end 1 2 1\n%output %1 " + long + "\n%window-add @1\n"
	for _, size := range []int{16, 4096} { // lines longer and shorter than the bufio buffer
		cr := &controlReader{br: bufio.NewReaderSize(strings.NewReader(input), size), maxLine: 100}

		m, err := cr.Next()
		if err != nil || m.Reply == nil {
			t.Fatalf("size %d: got %+v, %v; want a reply", size, m, err)
		}
		if want := []string{"short", long[:100]}; !reflect.DeepEqual(m.Reply.Lines, want) || !m.Reply.Truncated {
			t.Errorf("size %d: reply %q truncated=%v; want %q truncated", size, m.Reply.Lines, m.Reply.Truncated, want)
		}
		var se *controlSyntaxError
		if _, err := cr.Next(); !errors.As(err, &se) || !strings.Contains(se.Reason, "longer than 100") {
			t.Errorf("size %d: long notification: err %v; want a syntax error", size, err)
		}
		if m, err := cr.Next(); err != nil || m.Event.Kind != kindWindowAdd {
			t.Errorf("size %d: after the long line got %+v, %v; want window-add", size, m, err)
		}
	}
}

func TestControlReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	cr := newControlReader(io.MultiReader(strings.NewReader("%exit\n%sess"), iotest.ErrReader(boom)))
	if m, err := cr.Next(); err != nil || m.Event.Kind != kindExit {
		t.Fatalf("got %+v, %v; want exit", m, err)
	}
	if _, err := cr.Next(); !errors.Is(err, boom) {
		t.Errorf("got %v; want %v", err, boom)
	}
}

// escapeOutput escapes b the way tmux does for %output.
func escapeOutput(b []byte) []byte {
	var out []byte
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			out = fmt.Appendf(out, "\\%03o", c)
		} else {
			out = append(out, c)
		}
	}
	return out
}

func FuzzParseControlLine(f *testing.F) {
	for _, s := range []string{
		"%output %1 \\015\\015\\012\\134\\001\xc3\xa9\x9b\xff\x7f end\\015\\012",
		"%extended-output %1 2 : y\\015\\012y\\015\\012",
		"%extended-output %1 0 a b : c",
		"%begin 1795998748 265 0",
		"%end 1795998749 270 1",
		"%error 1795998749 272 1",
		"%layout-change @0 c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1] c195,80x24,0,0[80x12,0,0,0,80x11,0,13,1] *",
		"%window-renamed @0 a\\\\b\\001c \xc3\xa9",
		"%session-renamed $0 new name",
		"%subscription-changed sub1 $0 @0 0 %0 : sleep",
		"%subscription-changed s $1 - - - : v",
		"%client-session-changed client-12471 $1 other",
		"%pause %0",
		"%exit too far behind",
		"%paste-buffer-changed buffer0",
		"%output %1 \\",
		"",
		"%",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := parseControlLine(line)
		if err != nil {
			var se *controlSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *controlSyntaxError", err)
			}
			return
		}
		if ev.Kind == "" {
			t.Fatalf("no kind for %q", line)
		}
		if ev.Kind == kindOutput {
			// Escaping the data as tmux does and parsing again gives it back.
			again, err := parseControlLine(append([]byte("%output "+string(ev.Pane)+" "), escapeOutput(ev.Data)...))
			if err != nil || !bytes.Equal(again.Data, ev.Data) {
				t.Fatalf("re-escaped %q: got %q, %v", ev.Data, again.Data, err)
			}
		}
		// The reader agrees with the parser about a single line outside a
		// block, and never panics on it.
		if !bytes.ContainsRune(line, '\n') && ev.Kind != kindBegin {
			m, err := newControlReader(bytes.NewReader(append(line, '\n'))).Next()
			switch ev.Kind {
			case kindEnd, kindError:
				if err == nil {
					t.Fatalf("reader accepted %q outside a block", line)
				}
			default:
				if err != nil || !reflect.DeepEqual(m.Event, ev) {
					t.Fatalf("reader on %q: %+v, %v; parser: %+v", line, m.Event, err, ev)
				}
			}
		}
	})
}
