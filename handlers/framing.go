package handlers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// A shellKind is the syntax family a framed command is written for.
type shellKind int

const (
	notShell   shellKind = iota
	posixShell           // sh, dash, bash, ksh and friends
	zshShell
	fishShell
)

// shellOf reads tmux's pane_current_command (a process name; a login shell
// may carry a leading "-").
func shellOf(command string) shellKind {
	name := strings.TrimPrefix(filepath.Base(command), "-")
	switch name {
	case "sh", "dash", "ash", "bash", "ksh", "ksh93", "mksh", "pdksh", "yash", "busybox":
		return posixShell
	case "zsh":
		return zshShell
	case "fish":
		return fishShell
	}
	return notShell
}

// A frameFiles is one framed command's files, and the short line typed
// into the shell to run it. The line names the runner file and, as a
// label for whoever watches the pane, the command's first line; nothing
// the command prints, and no marker, is ever part of what is typed (and
// echoed).
type frameFiles struct {
	nonce   string
	command string // file holding the caller's command, verbatim
	runner  string // file that prints the markers around sourcing command
	scratch string // where a runner saves the shell's traps, or lists its jobs
	typed   string // the line typed into the shell
}

// writeFrame writes the files of a framed command into dir (private, 0700).
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
func writeFrame(dir, nonce, command, label string, kind shellKind) (frameFiles, error) {
	f := frameFiles{
		nonce:   nonce,
		command: filepath.Join(dir, "cmd-"+nonce),
		runner:  filepath.Join(dir, "run-"+nonce),
		scratch: filepath.Join(dir, "tmp-"+nonce),
	}
	start := frame.Printf(nonce, frame.Start)
	end := frame.Printf(nonce, frame.End)
	abort := frame.Printf(nonce, frame.Abort)
	stop := frame.Printf(nonce, frame.Stop)
	q := tmuxctl.ShellQuote(f.command)
	scratch := tmuxctl.ShellQuote(f.scratch)
	var runner string
	switch kind {
	case fishShell:
		runner = fmt.Sprintf("printf '%s'\n"+
			"function __tmux_mcp_abort --on-event fish_postexec\n"+
			"set -l s $status\nfunctions -e __tmux_mcp_abort\nprintf '%s' $s ''\nend\n"+
			"source %s\nset -g __tmux_mcp_status $status\nfunctions -e __tmux_mcp_abort\n"+
			"printf '%s' $__tmux_mcp_status\nset -e __tmux_mcp_status\n", start, abort, q, end)
		f.typed = " source " + tmuxctl.ShellQuote(f.runner) + comment(label)
	case zshShell:
		runner = fmt.Sprintf("printf '%s'\n{ . %s } always {\n__tmux_mcp_status=$?\n"+
			"if (( TRY_BLOCK_INTERRUPT > 0 )); then\nprintf '%s' \"$__tmux_mcp_status\" ''\nunset __tmux_mcp_status\n"+
			"elif (( __tmux_mcp_status >= 147 && __tmux_mcp_status <= 150 )); then\n"+
			"jobs -p %%+ > %s 2>/dev/null\nread -r __tmux_mcp_n __tmux_mcp_c __tmux_mcp_job __tmux_mcp_r < %s\n"+
			"printf '%s' \"$__tmux_mcp_status\" \"${__tmux_mcp_job//[^0-9]/}\"\n"+
			"unset __tmux_mcp_n __tmux_mcp_c __tmux_mcp_job __tmux_mcp_r\nTRY_BLOCK_ERROR=0\n"+
			"else\nprintf '%s' \"$__tmux_mcp_status\"\nTRY_BLOCK_ERROR=0\nfi\n}\n"+
			"eval \"unset __tmux_mcp_status; return $__tmux_mcp_status\"\n", start, q, abort, scratch, scratch, stop, end)
		f.typed = labelled(label) + " . " + tmuxctl.ShellQuote(f.runner)
	default:
		runner = bashForget(nonce) + fmt.Sprintf("printf '%[1]s'\n"+
			"if [ -n \"${BASH_VERSION-}\" ]; then\n"+
			"__tmux_mcp_pc=${PROMPT_COMMAND-} __tmux_mcp_pcset=${PROMPT_COMMAND+x}\n"+
			"__tmux_mcp_restore() {\n"+
			"if [ -n \"$__tmux_mcp_pcset\" ]; then PROMPT_COMMAND=$__tmux_mcp_pc; else unset PROMPT_COMMAND; fi\n"+
			"unset __tmux_mcp_pc __tmux_mcp_pcset; unset -f __tmux_mcp_restore __tmux_mcp_abort\n}\n"+
			"__tmux_mcp_abort() {\n"+
			"local s=$?\nprintf '%[2]s' \"$s\" ''\n__tmux_mcp_restore\n"+
			"if [ -n \"${PROMPT_COMMAND-}\" ]; then (exit \"$s\"); eval \"$PROMPT_COMMAND\"; fi\nreturn \"$s\"\n}\n"+
			"PROMPT_COMMAND=__tmux_mcp_abort\n"+
			"else\n"+
			// ksh93 makes a program stopped by C-z inside a sourced file
			// a stopped job of its own and goes on with $? 0: the runner
			// tells it by the current job changing to a stopped one.
			"if [ -n \"${KSH_VERSION-}\" ]; then jobs -l %%+ > %[3]s 2>/dev/null; __tmux_mcp_before=; read -r __tmux_mcp_before < %[3]s; fi\n"+
			// dash does not show the shell's traps to $(trap): they go
			// through a file.
			"trap > %[3]s\n"+
			"trap '__tmux_mcp_status=$?; trap - INT; . %[4]s; "+
			"printf \"%[2]s\" \"$__tmux_mcp_status\" INT; unset __tmux_mcp_status __tmux_mcp_before; kill -INT $$' INT\n"+
			"fi\n"+
			"command . %[5]s\n__tmux_mcp_status=$?\n"+
			"if [ -n \"${BASH_VERSION-}\" ]; then __tmux_mcp_restore; else trap - INT; . %[3]s; fi\n"+
			// A program stopped by C-z or a signal (128+SIGSTOP, SIGTSTP,
			// SIGTTIN or SIGTTOU) is left as a job: the newest job's process group goes in
			// the marker, so the pane stays reserved while it lives.
			"case $__tmux_mcp_status in 147|148|149|150) __tmux_mcp_stop=1;; *) __tmux_mcp_stop=;; esac\n"+
			"if [ -z \"$__tmux_mcp_stop\" ] && [ -n \"${KSH_VERSION-}\" ]; then\n"+
			"jobs -l %%+ > %[3]s 2>/dev/null; __tmux_mcp_l=; read -r __tmux_mcp_l < %[3]s\n"+
			"case $__tmux_mcp_l in *Stopped*) [ \"$__tmux_mcp_l\" != \"$__tmux_mcp_before\" ] && __tmux_mcp_stop=1;; esac\nfi\n"+
			"if [ -n \"$__tmux_mcp_stop\" ]; then\n"+
			"jobs -p > %[3]s 2>/dev/null; __tmux_mcp_job=\n"+
			"while read -r __tmux_mcp_l; do __tmux_mcp_job=$__tmux_mcp_l; done < %[3]s\n"+
			"printf '%[6]s' \"$__tmux_mcp_status\" \"$__tmux_mcp_job\"\n"+
			"else\nprintf '%[7]s' \"$__tmux_mcp_status\"\nfi\n"+
			"unset __tmux_mcp_stop __tmux_mcp_job __tmux_mcp_l __tmux_mcp_before\n"+
			"eval \"unset __tmux_mcp_status; return $__tmux_mcp_status\"\n",
			start, abort, scratch, shellQuoteInSingle(scratch), q, stop, end)
		// A leading space keeps the line out of bash and zsh history when
		// they ignore space-prefixed lines.
		f.typed = labelled(label) + " . " + tmuxctl.ShellQuote(f.runner)
	}
	if !strings.HasSuffix(command, "\n") {
		command += "\n"
	}
	if err := os.WriteFile(f.command, []byte(command), 0o600); err != nil {
		return frameFiles{}, err
	}
	if err := os.WriteFile(f.runner, []byte(runner), 0o600); err != nil {
		os.Remove(f.command)
		return frameFiles{}, err
	}
	return f, nil
}

// labelWidth is how much of a command's first line the typed line shows.
const labelWidth = 60

// shellQuoteInSingle makes a single-quoted word usable inside another
// single-quoted string (the trap's action): each quote becomes '\”.
func shellQuoteInSingle(quoted string) string {
	return strings.ReplaceAll(quoted, "'", `'\''`)
}

// commandLabel is what the typed line shows of a command: its first
// non-blank line, cut at labelWidth characters, reduced to characters
// that are inert after a shell's "#" and inside zsh's single quotes, all
// ASCII where it replaces (a shell in the C locale shows other characters
// as garbage). Control characters, format characters and bytes that are
// not UTF-8 become spaces; "!" (bash expands history even in comments)
// becomes ".", "'" becomes '"' and a backslash "/".
func commandLabel(command string) string {
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

// bashForget is the runner's first line in POSIX shells: in bash it
// deletes the history entry of the typed line, which names run-<nonce>.
// (zsh and ksh have no way to drop the current line: there the leading
// space keeps it out only with HIST_IGNORE_SPACE; fish never keeps
// space-prefixed lines, and dash keeps no history.)
func bashForget(nonce string) string {
	return `if [ -n "${BASH_VERSION-}" ]; then case $(history 1 2>/dev/null) in *run-` + nonce +
		`*) history -d "$HISTCMD" 2>/dev/null;; esac; fi` + "\n"
}

func (f frameFiles) remove() {
	os.Remove(f.command)
	os.Remove(f.runner)
	os.Remove(f.scratch)
}
