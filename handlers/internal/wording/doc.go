// Package wording is the one home of agent-facing error text: every error
// a tool returns is worded here, so each condition has one wording and
// every tool reports it the same way.
//
// It is a package of its own, below handlers, because the engines word
// errors too (a bad cursor, a busy pane, a pattern over its limits) and
// cannot import handlers. An error says what is wrong, what exists and
// what to do next, in tmux's words, in at most [Most] characters; it never
// repeats tmux argv, format strings or the runner scripts, which may hold
// a caller's secrets (-e NAME=value) and cost the agent context.
//
// Concurrency: the package holds no state. [Explain] and [Existing] ask
// tmux which objects exist; they hold no lock while doing so.
package wording
