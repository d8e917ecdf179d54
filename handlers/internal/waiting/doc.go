// Package waiting is the one wait engine every waiting tool runs on.
//
// It owns how a wait begins (the requested timeout clamped to the server's
// ceiling, a context that ends at that timeout, when the call is cancelled
// or when the server stops, progress reports while it lasts), how a wait
// on a pane's stream proceeds (resolving a cursor, the one-second poll
// that double-checks the pane still lives, taking in the output tmux read
// before a death, the screen captured after a miss, the recent text a wait
// keeps), how a wait on a pane whose pipe is someone else's watches its
// screen instead ([Watch.WatchScreen], [Watch.Look], on package
// screenwatch), and the one classification of how a wait ended
// ([Wait.End]).
// What each tool does with an ending — its outcome names and result
// fields — stays with the tool.
//
// Concurrency: a [Wait] and a [Watch] belong to the one call that began
// them and are not safe for use by several goroutines. The only goroutine
// the package starts is the progress ticker of [Begin]; [Wait.Done] and
// [Wait.End] stop it and wait for it to return, so no progress report can
// follow the call's result. A progress callback must not call back into
// the wait. No lock is held while calling tmux or the hub.
package waiting
