// Package cli is tmux-mcp for people: the subcommands that run a tool from
// a shell (call), list what the server offers (tools), check a setup
// (doctor) and show the server working on a private tmux (demo).
//
// Every subcommand talks to the same server the MCP clients get, built by
// package server and reached over an in-memory MCP connection, so what a
// person sees is what an agent gets: from the same server.Config the
// flags (shared by every subcommand) set, taps included, so a cursor one
// call prints continues in the next. main hands it over in an [Env].
package cli
