// Package e2e tests and measures the whole tmux-mcp binary from outside,
// as an MCP client does: it builds the module's root package once per run
// (with -race when the tests are a race build) and starts it on private tmux
// servers, each on a socket in a temporary directory, with no
// configuration file, killed at cleanup.
//
// What it holds: one builder behind every entry (stdio, HTTP and the tools
// command list the same tools; a cursor one call prints continues in the
// next), startup (calls held for the start-up sweep, a stopped tmux), the
// end of a server with calls in flight, several instances on one
// tmux (shared pane taps, holds handed on), what a killed or exiting server
// leaves behind (nothing), a stress run, a wedged tmux, the transport's
// shortcut against go-sdk's request path, the client snippets of README.md
// and docs/usage.md, and the benchmarks behind docs/performance.md.
//
// The testscript goldens stay with the program at the module root
// (go test -run TestScripts .): they run the server in-process as a
// testscript command.
//
// It has no code outside its tests.
package e2e
