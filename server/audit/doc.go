// Package audit writes the audit log of --audit FILE: one JSON line per
// tool call with its time, tool, the ids it targeted, its outcome (or the
// class of its error) and its duration. It never records argument values
// beyond tmux's own ids: commands, text and keys a caller sent stay out
// of the log.
package audit
