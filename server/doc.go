// Package server builds the whole tmux-mcp server from one [Config] and
// serves it: the pane-output hub over one tmux client, the handlers over
// that hub, the catalogue's MCP server over the handlers, the audit log,
// resources and prompts; then stdio or HTTP ([Serve]). main only turns
// flags and environment into a Config; the CLI and every whole-server
// test build from a Config too, so what a test or a person talks to is
// what the binary serves (the read-only tier's hub setting, taps and the
// tool selection included).
//
// A [Server] is built once and closed once. Stopping has two steps, so a
// server can end quickly without cutting short work an agent asked for:
// [Server.EndWaits] ends every wait in flight as cancelled (the waits
// answer with what they saw), while calls that do not wait finish;
// [Server.CancelCalls] then cancels every call, for one that does not
// finish. [Server.Close] does both and puts back everything the hub set in
// tmux. Close waits for the hub's goroutines; it is safe to call twice.
package server
