// Command tmux-mcp is a Model Context Protocol server that gives an AI agent
// a real tmux: durable panes to run programs in, their output, and waits
// that end on text, a channel or an exit instead of polling.
//
// It speaks JSON-RPC on standard input and output; an MCP client starts it
// as a subprocess. This package only turns flags and environment into a
// server.Config and picks what to run: a pane's tap (tmux starts it),
// a command for people (package cli), or the server (package server). Standard output carries only protocol; one line on
// standard error names the version, socket, tmux version and safety tier.
//
// # Ending
//
// The server ends when its input does: EOF on stdin, or SIGTERM, SIGINT or
// SIGHUP, all alike; and when its output does (a write to a closed stdout
// fails: SIGPIPE is ignored). Every wait in flight answers cancelled at
// once with what it saw; calls that do not wait get a second to answer
// normally, then are cancelled; what has not answered a second later is
// dropped. Then everything the server set in tmux is put back, and it
// exits: with a tmux that answers, well within two seconds.
//
// # Goroutines
//
// Every goroutine the process starts is joined before it exits:
//
//	goroutine             started by          stopped by                          waited for by
//	signal watcher        server.Serve        a signal, or serving returning       server.Serve, before it returns
//	end sequencer         ServeStdio          the session ending (or its steps)   ServeStdio, after Run returns
//	stdio line reader     stdio.Connect       EOF, or Transport.Close's deadline  Transport.Close (ServeStdio)
//	go-sdk's connection   mcp.Server.Run      its input closing (the transport)   mcp.Server.Run
//	a request's handler   go-sdk, per call    its answer; Server.CancelCalls      server.Server.Close (≤ 5 s)
//	the hub's goroutines  tmuxctl/live        live.Hub.Close                      live.Hub.Close (server.Close)
//
// The stdio reader can be interrupted only on a pipe or socket, which is
// what MCP clients give (see interruptibleInput); on a terminal it ends
// with the process. tmuxctl/live's doc lists the hub's goroutines.
package main
