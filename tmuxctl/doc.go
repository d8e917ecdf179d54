// Package tmuxctl is the only code in tmux-mcp that talks to tmux.
//
// A [Client] runs tmux commands for one tmux server (chosen by socket name,
// socket path, or tmux's own default) and exposes them as typed operations on
// sessions, windows and panes. Callers never build tmux argv: every caller
// string is escaped here, so a name containing "#{...}" or a trailing ";" is
// taken literally rather than expanded or split into a second command.
//
// Failures tmux reports come back as a [*CommandError], wrapped in a
// [*NotFoundError] when a target does not exist, or as [ErrServerGone] when no
// server answers on the socket.
//
// The operations that leave marks of tmux-mcp in tmux — a watched pane's
// pipe, a held pane's remain-on-exit, the pane-died hook entry — and their
// clean-up are [LiveOps], which only tmuxctl/live can obtain (it alone
// can name the key [Client.LiveOps] takes): the live layer owns those
// marks, and no other caller can set or remove one behind its back.
package tmuxctl
