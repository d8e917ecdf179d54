// Package server builds the whole tmux-mcp server: the pane-output hub over
// one tmux client, the handlers over that hub, and the catalogue's MCP
// server over the handlers. main.go and every whole-server test use it, so
// what a test talks to is what the binary serves (the read-only tier's
// hub setting included).
//
// A [Server] is built once and closed once. Stopping has two steps, so a
// server can end quickly without cutting short work an agent asked for:
// [Server.EndWaits] ends every wait in flight as cancelled (the waits
// answer with what they saw), while calls that do not wait finish;
// [Server.CancelCalls] then cancels every call, for one that does not
// finish. [Server.Close] does both and puts back everything the hub set in
// tmux. Close waits for the hub's goroutines; it is safe to call twice.
package server
