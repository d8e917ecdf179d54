// Package tools is the catalogue of tmux-mcp: every tool's name, title,
// description and safety class, and the one place that binds a tool's
// schema files (package schemas) to its handler (package handlers) on the
// MCP server.
package tools
