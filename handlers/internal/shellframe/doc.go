// Package shellframe frames a command for run_shell_command: it writes
// the command into a private file, and beside it a runner that the pane's
// shell sources and that prints invisible markers (package frame's) when
// the command starts and ends, so that the command's exact output and
// status can be read from the pane's stream.
//
// The runners are the shell files posix.sh, zsh.zsh and fish.fish,
// embedded, with @WORDS@ filled in per command; [Write] explains what each
// shell does on an interrupt and how its runner copes.
//
// Concurrency: the package holds no state. [Write] and [Files.Remove]
// touch only the files of their own nonce, so any number of goroutines may
// frame commands at once.
package shellframe
