package handlers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
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

// A frame is one framed command: its files, and the short line typed into
// the shell to run it. The line names only the runner file, so nothing the
// command prints, and no marker, is ever part of what is typed (and
// echoed).
type frame struct {
	nonce   string
	command string // file holding the caller's command, verbatim
	runner  string // file that prints the markers around sourcing command
	typed   string // the line typed into the shell
}

// marker returns the shell printf format for a frame marker of kind.
func marker(nonce, kind string) string {
	return `\033]7777;tmux-mcp;` + nonce + `;` + kind
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
func writeFrame(dir, nonce, command string, kind shellKind) (frame, error) {
	f := frame{
		nonce:   nonce,
		command: filepath.Join(dir, "cmd-"+nonce),
		runner:  filepath.Join(dir, "run-"+nonce),
	}
	start, end := marker(nonce, "start"), marker(nonce, "end")
	q := tmuxctl.ShellQuote(f.command)
	var runner string
	switch kind {
	case fishShell:
		runner = fmt.Sprintf("printf '%s\\a'\nsource %s\nset -g __tmux_mcp_status $status\n"+
			"printf '%s;%%d\\a' $__tmux_mcp_status\nset -e __tmux_mcp_status\n", start, q, end)
		f.typed = " source " + tmuxctl.ShellQuote(f.runner)
	case zshShell:
		runner = fmt.Sprintf("printf '%s\\a'\n{ . %s } always {\n__tmux_mcp_status=$?\n"+
			"printf '%s;%%d\\a' \"$__tmux_mcp_status\"\nTRY_BLOCK_ERROR=0\n}\n"+
			"eval \"unset __tmux_mcp_status; return $__tmux_mcp_status\"\n", start, q, end)
		f.typed = " . " + tmuxctl.ShellQuote(f.runner)
	default:
		// bash keeps the typed line in its history unless HISTCONTROL says
		// to ignore lines that start with a space; the runner takes it out
		// again, and only when the newest entry is that line.
		runner = fmt.Sprintf("%sprintf '%s\\a'\ncommand . %s\n__tmux_mcp_status=$?\n"+
			"printf '%s;%%d\\a' \"$__tmux_mcp_status\"\n"+
			"eval \"unset __tmux_mcp_status; return $__tmux_mcp_status\"\n", bashForget(nonce), start, q, end)
		// A leading space keeps the line out of bash and zsh history when
		// they ignore space-prefixed lines.
		f.typed = " . " + tmuxctl.ShellQuote(f.runner)
	}
	if !strings.HasSuffix(command, "\n") {
		command += "\n"
	}
	if err := os.WriteFile(f.command, []byte(command), 0o600); err != nil {
		return frame{}, err
	}
	if err := os.WriteFile(f.runner, []byte(runner), 0o600); err != nil {
		os.Remove(f.command)
		return frame{}, err
	}
	return f, nil
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

func (f frame) remove() {
	os.Remove(f.command)
	os.Remove(f.runner)
}
