// Package mcptest is the one MCP client of the tests: newline-delimited
// JSON-RPC over a reader and a writer (a server process's stdout and
// stdin, or an in-memory pipe), replies matched to requests by id,
// notifications kept in arrival order, and every wait bounded.
//
// It holds messages as raw JSON: tests assert on the wire, so the client
// decodes nothing a test did not ask for. [Client.Wait] and
// [Client.Reply] look replies up by their id as it is written on the wire
// (`7`, `"init"`), so a test may send lines with ids of its own.
//
// A Client is safe for concurrent use. It starts one goroutine, the reader
// of the server's output, which ends when that output does; [Client.Done]
// is closed then.
package mcptest
