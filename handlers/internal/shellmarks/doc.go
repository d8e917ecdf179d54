// Package shellmarks holds the files that make the shells of panes this
// server makes with the default shell mark their prompts and commands
// with OSC 133 (package frame reads the marks), the way terminal shell
// integrations do: after the user's own startup files, adding to
// PROMPT_COMMAND, PS0, precmd and preexec, never replacing them.
// docs/shell-marks.md says exactly what each adds.
//
// [Installer.Install] writes them once into a private directory that
// stays (tmux-mcp-marks-<uid>-<hash> in $TMUX_TMPDIR or the temporary
// directory); tmuxctl's gating
// shell starts bash, zsh or fish with them (see tmuxctl.Spawn.ShellMarks).
//
// Concurrency: an [Installer] is safe for concurrent use.
package shellmarks
