// Package pipes tells how much of what was written to a pipe is still
// unread: a tap deciding whether tmux has handed it output it has not
// taken yet, and the stdio transport deciding whether a request was
// written before a signal stopped the server.
package pipes
