package tmuxctl

import (
	"errors"
	"strings"
)

// A CommandError is a command tmux refused, in tmux's own words.
type CommandError struct {
	Argv    []string // as the caller asked for it, before socket flags, e.g. [capture-pane -p -t %9]
	Message string   // what tmux printed, e.g. "can't find pane: %9"
}

func (e *CommandError) Error() string {
	return strings.Join(shownArgv(e.Argv), " ") + ": " + truncate(e.Message, maxShown)
}

// maxShown bounds each argument and message an error repeats: a caller's
// 15 MB key must not come back as a 15 MB error.
const maxShown = 256

// shownArgv is argv as errors show it: environment values (-e NAME=value)
// hidden, since they are often secrets that must not land in an agent's
// transcript, and every argument cut to maxShown bytes.
func shownArgv(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if i > 0 && argv[i-1] == "-e" {
			if name, _, ok := strings.Cut(a, "="); ok {
				a = name + "=…"
			}
		}
		out[i] = truncate(a, maxShown)
	}
	return out
}

// ErrServerGone means no tmux server answers on the configured socket.
var ErrServerGone = errors.New("no tmux server is running on this socket")

// A NotFoundError reports a session, window or pane that does not exist.
type NotFoundError struct {
	Kind string // "session", "window" or "pane"
	ID   string
	Err  error // the refusal behind it, when tmux gave one
}

func (e *NotFoundError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Kind + " " + e.ID + " not found"
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// serverGoneError keeps tmux's wording while matching [ErrServerGone].
type serverGoneError struct{ cmd *CommandError }

func (e *serverGoneError) Error() string        { return e.cmd.Error() }
func (e *serverGoneError) Is(target error) bool { return target == ErrServerGone }
func (e *serverGoneError) Unwrap() error        { return e.cmd }

// ErrNameTaken means tmux refused a name because another object already
// has it ("duplicate session: NAME").
var ErrNameTaken = errors.New("the name is taken")

// ErrUnknownOption means tmux refused an option name it does not know
// ("invalid option", "unknown option" or "ambiguous option" — an
// abbreviation of several).
var ErrUnknownOption = errors.New("no such option")

// refusalError is a refusal tmux worded that matches one of the sentinels
// above; its text is tmux's.
type refusalError struct {
	cmd  *CommandError
	kind error
}

func (e *refusalError) Error() string        { return e.cmd.Error() }
func (e *refusalError) Is(target error) bool { return target == e.kind }
func (e *refusalError) Unwrap() error        { return e.cmd }

// classify recognises the refusals callers act on; anything else stays a
// plain *CommandError.
func classify(e *CommandError) error {
	// A command list that fails early can print the same refusal once per
	// command: the first line says it.
	msg, _, _ := strings.Cut(e.Message, "\n")
	for _, kind := range []string{"session", "window", "pane"} {
		for _, prefix := range []string{"can't find " + kind + ": ", "no such " + kind + ": "} {
			if id, ok := strings.CutPrefix(msg, prefix); ok {
				return &NotFoundError{Kind: kind, ID: id, Err: e}
			}
		}
	}
	if strings.HasPrefix(msg, "no server running on ") ||
		strings.HasPrefix(msg, "error connecting to ") ||
		strings.Contains(msg, "server exited unexpectedly") ||
		strings.HasPrefix(msg, "lost server") {
		return &serverGoneError{cmd: e}
	}
	if strings.HasPrefix(msg, "duplicate session: ") {
		return &refusalError{cmd: e, kind: ErrNameTaken}
	}
	for _, prefix := range []string{"invalid option", "unknown option", "ambiguous option"} {
		if strings.HasPrefix(msg, prefix) {
			return &refusalError{cmd: e, kind: ErrUnknownOption}
		}
	}
	return e
}
