// Package httpserve serves a tmux-mcp server over MCP's streamable HTTP
// transport, safe by default: every request must carry the bearer token
// (anything else is answered 401), a browser's request must come from a
// loopback origin or the server's own unless named (anything else is
// answered 403), and the listening address must be a loopback one unless
// the caller allows remote access explicitly.
//
// The MCP endpoint is /mcp. Sessions are kept for clients of the
// 2025-11-25 revision (their cancellations arrive as notifications in the
// session); a 2026-07-28 request stands alone, and closing its HTTP
// request cancels it.
package httpserve
