package tmuxctl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// This file reads what a tmux control-mode client (`tmux -C attach`) prints.
// The formats below were checked against tmux 3.3a; the lines quoted in
// controlparse_test.go were captured from it.
//
// tmux prints two kinds of line. A command's reply is a block:
//
//	%begin 1795998749 271 1
//	…output lines, exactly as the command printed them…
//	%end 1795998749 271 1
//
// (or %error instead of %end when the command failed), and every other line
// is a notification such as `%output %1 hi\015\012`.

// Kinds of [controlEvent]: the notification's name without its "%".
const (
	kindBegin                 = "begin"
	kindEnd                   = "end"
	kindError                 = "error"
	kindOutput                = "output"
	kindExtendedOutput        = "extended-output"
	kindPause                 = "pause"
	kindContinue              = "continue"
	kindExit                  = "exit"
	kindWindowAdd             = "window-add"
	kindWindowClose           = "window-close"
	kindWindowRenamed         = "window-renamed"
	kindWindowPaneChanged     = "window-pane-changed"
	kindUnlinkedWindowAdd     = "unlinked-window-add"
	kindUnlinkedWindowClose   = "unlinked-window-close"
	kindUnlinkedWindowRenamed = "unlinked-window-renamed"
	kindLayoutChange          = "layout-change"
	kindPaneModeChanged       = "pane-mode-changed"
	kindSessionChanged        = "session-changed"
	kindSessionRenamed        = "session-renamed"
	kindSessionWindowChanged  = "session-window-changed"
	kindSessionsChanged       = "sessions-changed"
	kindClientDetached        = "client-detached"
	kindClientSessionChanged  = "client-session-changed"
	kindSubscriptionChanged   = "subscription-changed"
	kindOther                 = "other" // a notification this parser does not know
)

// A controlEvent is one parsed control-mode line. Kind says which line it
// was; only the fields that line carries are set.
//
// Names (window, session, exit reason) are kept exactly as tmux printed
// them. tmux stores window and session names already made printable (a
// backslash in a name is "\\", a control byte "\001", as #{window_name}
// shows), and control mode prints that stored form; it is not the octal
// escaping of %output, so it is not undone here.
type controlEvent struct {
	Kind    string
	Pane    PaneID    // output, extended-output, pause, continue, pane-mode-changed, window-pane-changed, subscription-changed ("" for "-")
	Window  WindowID  // window-*, unlinked-window-*, layout-change, session-window-changed, subscription-changed ("" for "-")
	Session SessionID // session-changed, session-renamed, session-window-changed, client-session-changed, subscription-changed
	Client  string    // client-detached, client-session-changed: the other client's name

	// Name is the new name (window-renamed, unlinked-window-renamed,
	// session-changed, session-renamed, client-session-changed), the reason
	// of an exit ("" when tmux gave none), the subscription's name, or, for
	// Kind "other", the unknown notification's name without its "%".
	Name string

	Data   []byte // output, extended-output: the pane's bytes, unescaped; may be any bytes, not only UTF-8
	Value  string // subscription-changed: the format's value, as tmux printed it
	Layout string // layout-change: the window's layout string
	Age    int64  // extended-output: milliseconds tmux held the output before sending it

	Time   int64 // begin, end, error: seconds since the epoch
	Number int64 // begin, end, error: the command number that pairs a %begin with its %end
	Flags  int   // begin, end, error: 1 for commands this client sent, 0 for the attach itself

	// Raw is the whole line, for logs and for Kind "other". It is left
	// empty for output and extended-output: they are most of the traffic and
	// Data already holds their content.
	Raw string
}

// A controlSyntaxError reports a control-mode line that could not be
// parsed. Only that line is lost: a [controlReader] that returns one can
// be read again.
type controlSyntaxError struct {
	Line   string // the offending line, cut to at most 200 bytes
	Reason string
}

func (e *controlSyntaxError) Error() string {
	return fmt.Sprintf("parsing control-mode line %q: %s", e.Line, e.Reason)
}

func syntaxError(line []byte, reason string) error {
	const maxQuoted = 200
	if len(line) > maxQuoted {
		line = line[:maxQuoted]
	}
	return &controlSyntaxError{Line: string(line), Reason: reason}
}

// parseControlLine parses one control-mode line, without its newline.
// A line naming a notification this parser does not know is not an error:
// it comes back as Kind "other", because newer tmux versions add
// notifications and a client must skip them. An error means the line is not
// control-mode output at all, or a known notification is malformed.
//
// It does not know whether the line sits inside a %begin/%end block, where
// every line is command output; [controlReader] does.
func parseControlLine(line []byte) (controlEvent, error) {
	if len(line) < 2 || line[0] != '%' {
		return controlEvent{}, syntaxError(line, "not a notification")
	}
	name, rest := cutField(line[1:])
	ev := controlEvent{Kind: string(name)}
	var err error
	switch ev.Kind {
	case kindOutput:
		// %output %<pane> <escaped data>
		var pane []byte
		pane, rest = cutField(rest)
		if ev.Pane, err = paneID(pane); err == nil {
			ev.Data, err = appendUnescaped(make([]byte, 0, len(rest)), rest)
		}
	case kindExtendedOutput:
		// %extended-output %<pane> <age-ms> [reserved…] : <escaped data>
		var pane, age []byte
		pane, rest = cutField(rest)
		age, rest = cutField(rest)
		if ev.Pane, err = paneID(pane); err != nil {
			break
		}
		if ev.Age, err = number(age); err != nil {
			break
		}
		var ok bool
		if rest, ok = afterColon(rest); !ok {
			err = errors.New(`no " : " before the data`)
			break
		}
		ev.Data, err = appendUnescaped(make([]byte, 0, len(rest)), rest)
	case kindBegin, kindEnd, kindError:
		// %begin <time> <number> <flags> — any further fields are ignored.
		ev.Time, ev.Number, ev.Flags, err = guardFields(rest)
	case kindPause, kindContinue, kindPaneModeChanged:
		ev.Pane, err = paneID(firstField(rest))
	case kindExit:
		ev.Name = string(rest)
	case kindWindowAdd, kindWindowClose, kindUnlinkedWindowAdd, kindUnlinkedWindowClose:
		ev.Window, err = windowID(firstField(rest))
	case kindWindowRenamed, kindUnlinkedWindowRenamed:
		var w []byte
		w, rest = cutField(rest)
		ev.Window, err = windowID(w)
		ev.Name = string(rest)
	case kindWindowPaneChanged:
		var w []byte
		w, rest = cutField(rest)
		if ev.Window, err = windowID(w); err == nil {
			ev.Pane, err = paneID(firstField(rest))
		}
	case kindLayoutChange:
		// %layout-change @<window> <layout> <visible layout> <flags>
		var w []byte
		w, rest = cutField(rest)
		if ev.Window, err = windowID(w); err == nil {
			ev.Layout = string(firstField(rest))
		}
	case kindSessionChanged, kindSessionRenamed:
		// tmux 3.3a sends the id before the name for both, although its
		// manual shows only the name for %session-renamed.
		var s []byte
		s, rest = cutField(rest)
		ev.Session, err = sessionID(s)
		ev.Name = string(rest)
	case kindSessionWindowChanged:
		var s []byte
		s, rest = cutField(rest)
		if ev.Session, err = sessionID(s); err == nil {
			ev.Window, err = windowID(firstField(rest))
		}
	case kindSessionsChanged:
	case kindClientDetached:
		ev.Client = string(firstField(rest))
	case kindClientSessionChanged:
		// %client-session-changed <client> $<session> <name>
		var c, s []byte
		c, rest = cutField(rest)
		s, rest = cutField(rest)
		ev.Client = string(c)
		ev.Session, err = sessionID(s)
		ev.Name = string(rest)
	case kindSubscriptionChanged:
		err = parseSubscription(&ev, rest)
	default:
		ev.Kind, ev.Name = kindOther, string(name)
	}
	if err != nil {
		return controlEvent{}, syntaxError(line, "%"+string(name)+": "+err.Error())
	}
	if ev.Kind != kindOutput && ev.Kind != kindExtendedOutput {
		ev.Raw = string(line)
	}
	return ev, nil
}

// parseSubscription reads the fields of
//
//	%subscription-changed <name> $<session> @<window>|- <index>|- %<pane>|- [reserved…] : <value>
//
// tmux 3.3a prints "-" for the window, index and pane of a session-wide
// subscription, and for the pane of a window-wide one.
func parseSubscription(ev *controlEvent, rest []byte) error {
	var name, s, w, pane []byte
	name, rest = cutField(rest)
	s, rest = cutField(rest)
	w, rest = cutField(rest)
	_, rest = cutField(rest) // window index
	pane, rest = cutField(rest)
	ev.Name = string(name)
	var err error
	if ev.Session, err = sessionID(s); err != nil {
		return err
	}
	if string(w) != "-" {
		if ev.Window, err = windowID(w); err != nil {
			return err
		}
	}
	if string(pane) != "-" {
		if ev.Pane, err = paneID(pane); err != nil {
			return err
		}
	}
	value, ok := afterColon(rest)
	if !ok {
		return errors.New(`no " : " before the value`)
	}
	ev.Value = string(value)
	return nil
}

// cutField splits s at its first space. Only one space is consumed, so
// data after the last field keeps its leading spaces.
func cutField(s []byte) (field, rest []byte) {
	if i := bytes.IndexByte(s, ' '); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, nil
}

func firstField(s []byte) []byte {
	f, _ := cutField(s)
	return f
}

// afterColon skips fields up to and including one that is exactly ":",
// returning what follows it. tmux reserves the fields before the ":" for
// future use.
func afterColon(s []byte) ([]byte, bool) {
	for len(s) > 0 {
		var f []byte
		f, s = cutField(s)
		if len(f) == 1 && f[0] == ':' {
			return s, true
		}
	}
	return nil, false
}

func guardFields(s []byte) (t, n int64, flags int, err error) {
	var a, b, c []byte
	a, s = cutField(s)
	b, s = cutField(s)
	c, _ = cutField(s)
	if t, err = number(a); err != nil {
		return
	}
	if n, err = number(b); err != nil {
		return
	}
	var f int64
	if f, err = number(c); err != nil {
		return
	}
	if f > 1<<31-1 {
		return 0, 0, 0, fmt.Errorf("flags %s out of range", c)
	}
	return t, n, int(f), nil
}

// number parses a non-negative decimal without sign, as tmux prints them.
func number(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, errors.New("missing number")
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad number %q", b)
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", b)
	}
	return n, nil
}

func paneID(b []byte) (PaneID, error) {
	if !isID(b, '%') {
		return "", fmt.Errorf("bad pane id %q", b)
	}
	return PaneID(b), nil
}

func windowID(b []byte) (WindowID, error) {
	if !isID(b, '@') {
		return "", fmt.Errorf("bad window id %q", b)
	}
	return WindowID(b), nil
}

func sessionID(b []byte) (SessionID, error) {
	if !isID(b, '$') {
		return "", fmt.Errorf("bad session id %q", b)
	}
	return SessionID(b), nil
}

// isID reports whether b is sigil followed by at least one decimal digit.
func isID(b []byte, sigil byte) bool {
	if len(b) < 2 || b[0] != sigil {
		return false
	}
	for _, c := range b[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// appendUnescaped appends to dst the bytes of a %output payload. tmux
// (control.c, control_append_data) writes every byte below 0x20 and the
// backslash as a backslash and three octal digits, and every other byte,
// 0x7f and 0x80-0xff included, as it is. A backslash not followed by three
// octal digits that make a byte cannot come from tmux, so it is an error.
func appendUnescaped(dst, src []byte) ([]byte, error) {
	for {
		i := bytes.IndexByte(src, '\\')
		if i < 0 {
			return append(dst, src...), nil
		}
		dst = append(dst, src[:i]...)
		src = src[i:]
		if len(src) < 4 || !isOctal(src[1]) || !isOctal(src[2]) || !isOctal(src[3]) || src[1] > '3' {
			return dst, fmt.Errorf("bad escape %q", src[:min(len(src), 4)])
		}
		dst = append(dst, (src[1]-'0')<<6|(src[2]-'0')<<3|(src[3]-'0'))
		src = src[4:]
	}
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// A controlReply is the output of one command sent to a control client:
// the lines between a %begin and the %end or %error with the same time,
// number and flags.
//
// The lines are exactly what the command printed — not escaped, so they may
// hold control bytes and invalid UTF-8. tmux 3.3a also writes the %pause and
// %continue that `refresh-client -A '%1:pause'` and `'%1:continue'` cause
// inside that command's reply block, despite its manual saying no
// notification occurs inside a block; they stay among the Lines, and only
// the code that sent the command can tell them from output.
//
// The first reply on every connection is the attach command's own, with
// Flags 0; replies to commands the client sent have Flags 1.
type controlReply struct {
	Time   int64
	Number int64
	Flags  int
	Failed bool // the block ended with %error; Lines then hold tmux's message
	Lines  []string
	// Truncated is set when a line was longer than the reader's limit and
	// was cut to it.
	Truncated bool
}

// A controlMessage is what [controlReader.Next] returns: either a finished
// command reply (Reply non-nil) or one notification (Event.Kind non-empty).
type controlMessage struct {
	Reply *controlReply
	Event controlEvent
}

// A controlReader splits the output of a control-mode client into command
// replies and notifications, in the order tmux printed them.
//
// It is not safe for concurrent use.
type controlReader struct {
	br *bufio.Reader
	// long holds a line that did not fit in br's buffer.
	long []byte
	// maxLine bounds memory for one line. A reply line longer than this is
	// cut (and the reply marked Truncated); a notification line longer than
	// this is skipped with a syntax error. tmux 3.3a splits %output into
	// lines of at most about 8 KiB, so only command output (a huge
	// show-buffer, say) can come near it.
	maxLine int
	// reply is the block being read, nil between blocks.
	reply *controlReply
}

// newControlReader returns a controlReader reading from r, which is
// normally the standard output of `tmux -C attach`.
func newControlReader(r io.Reader) *controlReader {
	return &controlReader{br: bufio.NewReaderSize(r, 64<<10), maxLine: 64 << 20}
}

// Next returns the next command reply or notification.
//
// A [*controlSyntaxError] means one line outside any reply could not be
// parsed (or an %end or %error came with no %begin); that line is skipped
// and Next can be called again. Any other error is final: io.EOF when tmux
// closed the stream between lines and blocks, io.ErrUnexpectedEOF when it
// closed it inside a line or a reply block, else the reader's error.
func (cr *controlReader) Next() (controlMessage, error) {
	for {
		line, cut, err := cr.readLine()
		if err != nil {
			if err == io.EOF && cr.reply != nil {
				err = io.ErrUnexpectedEOF
			}
			return controlMessage{}, err
		}
		if r := cr.reply; r != nil {
			if failed, ok := endsBlock(line, r); ok {
				r.Failed = failed
				cr.reply = nil
				return controlMessage{Reply: r}, nil
			}
			r.Lines = append(r.Lines, string(line))
			r.Truncated = r.Truncated || cut
			continue
		}
		if cut {
			return controlMessage{}, syntaxError(line, fmt.Sprintf("line longer than %d bytes", cr.maxLine))
		}
		ev, err := parseControlLine(line)
		if err != nil {
			return controlMessage{}, err
		}
		switch ev.Kind {
		case kindBegin:
			cr.reply = &controlReply{Time: ev.Time, Number: ev.Number, Flags: ev.Flags}
			continue
		case kindEnd, kindError:
			return controlMessage{}, syntaxError(line, "%"+ev.Kind+" without %begin")
		}
		return controlMessage{Event: ev}, nil
	}
}

// endsBlock reports whether line is the %end or %error that closes r.
// Matching all three numbers matters: a command's output may itself hold
// a line such as "%end 1 2 3" (tmux 3.3a prints it as it is).
func endsBlock(line []byte, r *controlReply) (failed, ok bool) {
	var rest []byte
	switch {
	case bytes.HasPrefix(line, []byte("%end ")):
		rest = line[len("%end "):]
	case bytes.HasPrefix(line, []byte("%error ")):
		rest, failed = line[len("%error "):], true
	default:
		return false, false
	}
	t, n, f, err := guardFields(rest)
	if err != nil || t != r.Time || n != r.Number || f != r.Flags {
		return false, false
	}
	return failed, true
}

// readLine returns the next line without its newline, and whether it was
// cut to maxLine. The line is valid until the next call.
func (cr *controlReader) readLine() (line []byte, cut bool, err error) {
	const keep = 1 << 20 // don't hold on to the buffer of one huge line
	if cap(cr.long) > keep {
		cr.long = nil
	}
	cr.long = cr.long[:0]
	for {
		frag, rerr := cr.br.ReadSlice('\n')
		switch rerr {
		case nil:
			frag = frag[:len(frag)-1]
			if len(cr.long) == 0 && !cut {
				if len(frag) > cr.maxLine {
					return frag[:cr.maxLine], true, nil
				}
				return frag, false, nil
			}
			cr.long, cut = appendCapped(cr.long, frag, cr.maxLine, cut)
			return cr.long, cut, nil
		case bufio.ErrBufferFull:
			cr.long, cut = appendCapped(cr.long, frag, cr.maxLine, cut)
		default:
			if rerr == io.EOF && (len(frag) > 0 || len(cr.long) > 0 || cut) {
				rerr = io.ErrUnexpectedEOF
			}
			return nil, false, rerr
		}
	}
}

func appendCapped(dst, p []byte, limit int, cut bool) ([]byte, bool) {
	if room := limit - len(dst); len(p) > room {
		return append(dst, p[:room]...), true
	}
	return append(dst, p...), cut
}
