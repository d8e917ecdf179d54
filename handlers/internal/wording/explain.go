package wording

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// Most is the most characters an error may have.
const Most = 400

// errorf is fmt.Errorf with the result cut to Most characters (keeping
// what it wraps for errors.Is and errors.As).
func errorf(format string, a ...any) error {
	err := fmt.Errorf(format, a...)
	if utf8.RuneCountInString(err.Error()) <= Most {
		return err
	}
	return &cut{err: err}
}

// A cut is an error whose text was too long for an agent to read at once.
type cut struct{ err error }

func (c *cut) Error() string { return Shorten(c.err.Error(), Most) }
func (c *cut) Unwrap() error { return c.err }

// Shorten cuts s to at most n characters, ending it with "…" when cut.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Explain words a tmuxctl error for the agent: what went wrong and what
// to do next, in tmux's words. client is the one that failed; the objects
// that exist are read from it.
func Explain(ctx context.Context, client *tmuxctl.Client, err error) error {
	var nf *tmuxctl.NotFoundError
	var ce *tmuxctl.CommandError
	var pe *tmuxctl.ProgramError
	var taken *tmuxctl.PipeTakenError
	switch {
	case errors.As(err, &nf):
		return NotFound(ctx, client, nf.Kind, nf.ID)
	case errors.As(err, &taken):
		return PipeNotOurs(taken)
	case errors.As(err, &pe):
		return CannotRun(pe)
	case errors.Is(err, tmuxctl.ErrServerGone):
		return NoServer(client, false)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		cause := context.Canceled
		if errors.Is(err, context.DeadlineExceeded) {
			cause = context.DeadlineExceeded
		}
		return errorf("the call was cancelled or ran out of time before tmux answered: %w", cause)
	case errors.As(err, &ce):
		return Refused(ce)
	case err == nil:
		return nil
	}
	return errorf("%s", Reason(err))
}

// ExplainField is Explain, with the input field that named a missing
// object put first.
func ExplainField(ctx context.Context, client *tmuxctl.Client, field string, err error) error {
	var nf *tmuxctl.NotFoundError
	if errors.As(err, &nf) {
		return errorf("%s: %w", field, Explain(ctx, client, err))
	}
	return Explain(ctx, client, err)
}

// Refused words a refusal tmux gave that no other wording covers: tmux's
// message, never the command or its arguments (the agent called a tool,
// not a tmux command).
func Refused(ce *tmuxctl.CommandError) error {
	return errorf("tmux refused: %s", Shorten(firstLine(ce.Message), 300))
}

// CannotRun says a program cannot be started, and that nothing was made
// for it.
func CannotRun(pe *tmuxctl.ProgramError) error {
	next := "give an executable file"
	switch pe.Why {
	case tmuxctl.NotOnPath:
		next = "check the name, or give its full path"
	case tmuxctl.NoSuchFile:
		next = "check the path"
	}
	return errorf("%s (nothing was created); %s", (&tmuxctl.ProgramError{Program: plainOrQuoted(Shorten(pe.Program, 80)), Why: pe.Why}).Error(), next)
}

// plainOrQuoted is s as it is when it reads unambiguously in a sentence,
// else quoted.
func plainOrQuoted(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == '"' || r == 0x7f || !strconv.IsPrint(r) }) {
		return strconv.Quote(s)
	}
	return s
}

// Reason is why err happened, in tmux's words and without argv, for a
// sentence that goes on (a note, a wrapped error).
func Reason(err error) string {
	var ce *tmuxctl.CommandError
	var pe *fs.PathError
	switch {
	case errors.As(err, &ce):
		return Shorten(firstLine(ce.Message), 300)
	case errors.As(err, &pe):
		// The path is one of this server's private files (a command
		// file, a pane's FIFO): what went wrong matters, not where.
		return Shorten("this server could not "+pe.Op+" one of its private files: "+pe.Err.Error(), 300)
	}
	return Shorten(err.Error(), 300)
}

// firstLine is the first line of tmux's message, without the "file:line: "
// that tmux puts before an error of a command it read from a file (this
// server's private command files).
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return sourcedAt.ReplaceAllString(line, "")
}

var sourcedAt = regexp.MustCompile(`^/[^:]*:[0-9]+: `)

// NotFound says that a session, window or pane was not found, and which
// exist.
func NotFound(ctx context.Context, client *tmuxctl.Client, kind, id string) error {
	return errorf("%s %s not found (existing: %s); call list_%ss to see them all",
		kind, id, Existing(ctx, client, kind), listNoun(kind))
}

func listNoun(kind string) string {
	if kind == "pane" || kind == "window" || kind == "session" {
		return kind
	}
	return "pane"
}

// Existing names up to a dozen ids of kind for an error message.
func Existing(ctx context.Context, client *tmuxctl.Client, kind string) string {
	var ids []string
	switch kind {
	case "session":
		ss, _ := client.ListSessions(ctx)
		for _, s := range ss {
			ids = append(ids, string(s.ID))
		}
	case "window":
		ws, _ := client.ListWindows(ctx, "")
		for _, w := range ws {
			ids = append(ids, string(w.ID))
		}
	default:
		ps, _ := client.ListPanes(ctx, tmuxctl.PaneScope{})
		for _, p := range ps {
			ids = append(ids, string(p.ID))
		}
	}
	return List(ids)
}

// List names up to a dozen items for an error message ("none" for none).
func List(items []string) string {
	const most = 12
	switch {
	case len(items) == 0:
		return "none"
	case len(items) > most:
		return strings.Join(items[:most], ", ") + fmt.Sprintf(" and %d more", len(items)-most)
	}
	return strings.Join(items, ", ")
}

// NoServer words a socket with no tmux server behind it; named is true
// when the caller named the socket (socket_name) rather than using this
// server's own.
func NoServer(client *tmuxctl.Client, named bool) error {
	if named {
		return errorf("no tmux server is running on socket %s (socket_name); check the name, or pass null for this server's own socket", client.Describe())
	}
	return errorf("no tmux server is running on socket %s; create_session starts one", client.Describe())
}

// NameTaken refuses a name that another object of kind already has.
func NameTaken(field, kind, name string) error {
	return errorf("%s: another %s is already named %q; %s names are unique", field, kind, name, kind)
}

// UnknownOption words tmux's refusal of option name (unknown, or an
// abbreviation of several), in tmux's words.
func UnknownOption(name string, err error) error {
	return errorf("option %s: %s (user options start with @; show_option without name lists the options of a scope)", name, Reason(err))
}
