// Package handlers holds the behaviour of every tmux-mcp tool.
//
// A handler takes the tool's generated input struct (package gen) and
// returns its generated output struct, or an error worded for the agent by
// [Handlers.explain]. Handlers know nothing about MCP and never build tmux
// argv: they ask package tmuxctl for operations.
package handlers
