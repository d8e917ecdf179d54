// Package echo is the echo book: what this server typed into each pane
// (send_keys, paste_text, load_buffer's paste, run_shell_command's line),
// so that waits can discount a program echoing it back ([Spans]).
//
// Concurrency: a [Book] is safe for concurrent use. Its one mutex is held
// only inside its methods, which call nothing outside the package while
// holding it.
package echo
