package shellframe

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A Kind is the syntax family a framed command is written for.
type Kind int

const (
	NotShell Kind = iota
	POSIX         // sh, dash, bash, ksh and friends
	Zsh
	Fish
)

// Of reads tmux's pane_current_command (a process name; a login shell
// may carry a leading "-").
func Of(command string) Kind {
	name := strings.TrimPrefix(filepath.Base(command), "-")
	switch name {
	case "sh", "dash", "ash", "bash", "ksh", "ksh93", "mksh", "pdksh", "yash", "busybox":
		return POSIX
	case "zsh":
		return Zsh
	case "fish":
		return Fish
	}
	return NotShell
}

// Files are one framed command's files, and the short line typed
// into the shell to run it. The line names the runner file and, as a
// label for whoever watches the pane, the command's first line; nothing
// the command prints, and no marker, is ever part of what is typed (and
// echoed).
type Files struct {
	Nonce   string // names the markers the runner prints
	Typed   string // the line typed into the shell
	command string // file holding the caller's command, verbatim
	runner  string // file that prints the markers around sourcing command
	scratch string // where a runner saves the shell's traps, or lists its jobs
}

// Write writes the files of a framed command into dir (private, 0700).
//
// The command is sourced in the shell itself, as if typed: cd and variable
// changes persist. Whatever it does, the end marker must still print, so
// an error that makes an interactive shell abandon the line (a syntax
// error, ${x:?}, a failed special builtin) is contained: by `command .` in
// POSIX shells, by an always block in zsh. The runner then sets $? to the
// command's status with `return` (no subshell, so tmux keeps seeing the
// shell as the pane's program).
//
// An interrupt is different: the shell must abandon the command, as it
// would a typed one, and still say so. What each shell does on SIGINT in a
// sourced file (measured with bash 5.2, dash 0.5.12, ksh 93u+m, zsh 5.9
// and fish 3.6) decides how:
//
//   - dash, ksh: a program killed by SIGINT makes the shell raise SIGINT on
//     itself, which runs an INT trap. The runner's trap prints an abort
//     marker, puts the user's traps back and re-raises SIGINT with the
//     default action, so the shell abandons the rest as it always does.
//   - bash: with an INT trap set, bash neither runs it nor abandons the
//     command (it goes on with the next line: no use); without one it
//     abandons everything up to the prompt. So the runner takes over
//     PROMPT_COMMAND for the command's duration: it runs only if the
//     runner never got to its end, prints the abort marker with $?, puts
//     PROMPT_COMMAND back and runs the user's own.
//   - zsh: an always block runs on an interrupt too (TRY_BLOCK_INTERRUPT
//     says so), and zsh abandons the rest after it.
//   - fish: a temporary fish_postexec handler runs once the interrupted
//     line is abandoned; the runner removes it when the command ends.
//
// C-\ (SIGQUIT) and C-z (SIGTSTP) do not make any of these shells abandon
// a sourced file: the program ends or stops and the rest of the command
// runs, so the end marker carries the status the shell reports (131,
// 148). ksh is the exception for C-z: it stops the whole sourced file,
// which goes on (and ends the frame) when resumed with fg.
func Write(dir, nonce, command, label string, kind Kind) (Files, error) {
	f := Files{
		Nonce:   nonce,
		command: filepath.Join(dir, "cmd-"+nonce),
		runner:  filepath.Join(dir, "run-"+nonce),
		scratch: filepath.Join(dir, "tmp-"+nonce),
	}
	runner := render(kind, f)
	switch kind {
	case Fish:
		f.Typed = " source " + tmuxctl.ShellQuote(f.runner) + comment(label)
	default:
		// A leading space keeps the line out of bash and zsh history when
		// they ignore space-prefixed lines.
		f.Typed = labelled(label) + " . " + tmuxctl.ShellQuote(f.runner)
	}
	if !strings.HasSuffix(command, "\n") {
		command += "\n"
	}
	if err := os.WriteFile(f.command, []byte(command), 0o600); err != nil {
		return Files{}, err
	}
	if err := os.WriteFile(f.runner, []byte(runner), 0o600); err != nil {
		os.Remove(f.command)
		return Files{}, err
	}
	return f, nil
}

// labelWidth is how much of a command's first line the typed line shows.
const labelWidth = 60

// Label is what the typed line shows of a command: its first
// non-blank line, cut at labelWidth characters, reduced to characters
// that are inert after a shell's "#" and inside zsh's single quotes, all
// ASCII where it replaces (a shell in the C locale shows other characters
// as garbage). Control characters, format characters and bytes that are
// not UTF-8 become spaces; "!" (bash expands history even in comments)
// becomes ".", "'" becomes '"' and a backslash "/".
func Label(command string) string {
	var line string
	for _, l := range strings.FieldsFunc(command, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.TrimSpace(l) != "" {
			line = l
			break
		}
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1, unicode.IsControl(r), r == '\u2028', r == '\u2029',
			unicode.Is(unicode.Cf, r):
			r = ' '
		case r == '!':
			r = '.'
		case r == '\'':
			r = '"'
		case r == '\\':
			r = '/'
		}
		if n == labelWidth {
			b.WriteString("...")
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// comment is the label as a trailing comment (fish, which always reads #
// as one).
func comment(label string) string {
	if label == "" {
		return ""
	}
	return " # " + label
}

// labelled puts the label before the runner as one single-quoted word for
// ":" (the label has no "'"), so it is inert even where "#" starts no
// comment: zsh without INTERACTIVE_COMMENTS (its default), bash with
// interactive_comments off. It goes first so that $? after the runner is
// the command's.
func labelled(label string) string {
	if label == "" {
		return ""
	}
	return " : '" + label + "';"
}

// Remove deletes the files.
func (f Files) Remove() {
	os.Remove(f.command)
	os.Remove(f.runner)
	os.Remove(f.scratch)
}
