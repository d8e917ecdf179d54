// Package tools is the catalogue of tmux-mcp: every tool's name, title,
// description and safety class, and the one place that binds a tool's
// schema files (package schemas) to its handler (package handlers) on the
// MCP server, rendering each result's text block from its structured
// content (render.go). The transport lives in tools/stdio; main wires it
// all together.
package tools
