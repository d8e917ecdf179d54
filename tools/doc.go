// Package tools is the catalogue of tmux-mcp: every tool's name, title,
// description, safety class, toolset and handler (catalogue.go), and the
// one place that binds a tool's schema files (package schemas) to its
// handler (package handlers) on an MCP server (tool.go, server.go).
//
// Around the catalogue: toolset.go selects what a server offers
// (--toolsets, --tools) and refusals name the flag for the rest;
// render.go writes each result's text block from its structured content;
// shorten.go rewords long argument errors; docs.go writes TOOLS.md;
// direct.go calls read tools outside tools/call for
// call_read_tools_batch. A tools/call's arguments and result go through
// tools/callpath, go-sdk's typed tool path done faster and held equal to
// it. The stdio transport is tools/stdio; package server builds the
// server from this one.
//
// Adding a tool: docs/adding-a-tool.md; TestNewToolIsComplete names what a
// tool still lacks.
package tools
