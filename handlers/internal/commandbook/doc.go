// Package commandbook is run_shell_command's command book: every command
// it typed, by id, and which pane each one reserves until it is seen to
// end, with an ended command's result kept for wait_for_command. It also
// reads a command's start and end from its markers ([FrameOf],
// [OutcomeOf], [SignalOf]).
//
// Concurrency: a [Book] is safe for concurrent use. Its one mutex guards
// the maps and each [Command]'s result fields. Lock order: while holding
// it the book reads a command's stream (live.Stream.State, Markers,
// which take the stream's own lock), checks a stopped job with a kill(2),
// and calls a command's Release; streams never call the book, so the
// order is always book, then stream. Callers must not call the book from
// a Release func.
package commandbook
