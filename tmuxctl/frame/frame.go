// Package frame owns the wire format of the invisible markers that framed
// shell commands (run_shell_command) and acked programs (run_program)
// print: how a shell writes one, and how a stream finds and reads one.
// tmuxctl writes them into shims, handlers into runner files, and live
// scans pane output for them; none of them spells the format itself.
//
// A marker is an OSC 7777 string, which terminals and tmux ignore and the
// stream's escape filter removes from the text, so it is invisible on
// screen and in the text while the stream still knows where it stood:
//
//	ESC ] 7777 ; tmux-mcp ; <nonce> ; <kind> [; <status> [; <detail>]] BEL
//
// Every field is printable ASCII without ";" (a detail may be empty).
package frame

import (
	"strconv"
	"strings"
)

// Prefix starts every marker.
const Prefix = "\x1b]7777;tmux-mcp;"

// MaxLen is the longest marker accepted, prefix and BEL included.
const MaxLen = 128

// A Kind says what a marker reports.
type Kind string

const (
	// Start: a framed command is about to run (no status).
	Start Kind = "start"
	// End: a framed command returned to its runner; status is its $?.
	End Kind = "end"
	// Abort: the shell abandoned a framed command (an interrupt); status
	// is what the shell reported, detail the signal's name when the
	// runner knows it.
	Abort Kind = "abort"
	// Stop: a framed command returned to its runner because its program
	// was stopped (C-z); status is its $?, detail the stopped job's
	// process group id, or "" when the shell did not say.
	Stop Kind = "stop"
	// Exit: an acked program ended; status is its exit status.
	Exit Kind = "exit"
	// Exec: a gating shell found the program it was asked to start and
	// is about to exec it (no status).
	Exec Kind = "exec"
)

// hasStatus reports whether markers of kind k carry a status.
func (k Kind) hasStatus() bool { return k == End || k == Abort || k == Stop || k == Exit }

// hasDetail reports whether markers of kind k carry a detail after the status.
func (k Kind) hasDetail() bool { return k == Abort || k == Stop }

// A Marker is one marker found in pane output.
type Marker struct {
	Nonce  string
	Kind   Kind
	Status int    // for End, Abort and Exit
	Detail string // for Abort: a signal name such as "INT"; for Stop: a process group id; or ""
	Offset int64  // stream offset where it stood: text before it ends here
}

// Printf returns a printf format (for the printf utility or builtin of any
// shell) that writes the marker of kind for nonce. For kinds with a
// status, the format takes the status as one %d argument; for Abort and
// Stop, a second %s argument with the detail.
func Printf(nonce string, kind Kind) string {
	f := `\033]7777;tmux-mcp;` + nonce + `;` + string(kind)
	switch {
	case kind.hasDetail():
		f += `;%d;%s`
	case kind.hasStatus():
		f += `;%d`
	}
	return f + `\007`
}

// Parse reads a marker's body: what stands between Prefix and BEL.
func Parse(body string) (Marker, bool) {
	f := strings.Split(body, ";")
	if len(f) < 2 || f[0] == "" {
		return Marker{}, false
	}
	m := Marker{Nonce: f[0], Kind: Kind(f[1])}
	switch m.Kind {
	case Start, Exec:
		return m, len(f) == 2
	case End, Exit, Abort, Stop:
		want := 3
		if m.Kind.hasDetail() {
			want = 4
		}
		if len(f) != want {
			return Marker{}, false
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return Marker{}, false
		}
		m.Status = n
		if m.Kind.hasDetail() {
			m.Detail = f[3]
		}
		return m, true
	}
	return Marker{}, false
}
