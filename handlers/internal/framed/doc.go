// Package framed owns the framed-command protocol of run_shell_command
// and run_program: it frames a command in a private file the pane's shell
// sources (package shellframe writes it), types the short line that runs
// it, follows the invisible markers (package frame's) the runner prints
// in the pane's stream, and keeps the book of commands, by id, with the
// pane each reserves and the result of each that ended, for
// wait_for_command. It speaks its own types ([Result], [Outcome],
// [State]); handlers map them onto the wire.
//
// A run is: [Book.Free] (is the pane reserved?), [Book.Type], then
// [Book.Follow] within a wait; later calls find the command with
// [Book.Find] and either [Book.Stored] (it ended) or Follow again.
// [Book.AwaitExit] follows run_program's exit marker the same way. Both
// can also end when the program waits for terminal input (package
// inputwait judges it, once the pane has been quiet a moment), with the
// prompt and the evidence as an [Asking]: the command runs on, and a
// later Follow or wait collects the rest.
//
// Concurrency: a [Book] is safe for concurrent use. Its one mutex guards
// the maps and each [Command]'s result fields. Lock order: while holding
// it the book reads a command's stream (live.Stream.State, Markers,
// which take the stream's own lock), checks a stopped job with a kill(2),
// and calls a command's Release; streams never call the book, so the
// order is always book, then stream. Callers must not call the book from
// a Release func. Type and Follow take no lock while they type or wait.
package framed
