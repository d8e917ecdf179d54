// Package handlers holds the tool methods of tmux-mcp, one file per
// catalogue family (the // headings of tools/catalogue.go), named after
// it: finding.go, inspecting.go, making.go, arranging.go, typing.go,
// watching.go, programs.go, channels.go and options.go. A tool's method is
// its wire name in Go case (capture_pane: [Handlers.CapturePane], in
// typing.go). handlers.go holds the type and its limits, wire.go maps the
// lower layers' enums and counts onto the generated wire types, and
// explain.go forwards to package wording, which words every error.
//
// A handler takes the tool's generated input struct (package gen) and
// returns its generated output struct, or an error. Handlers know nothing
// about MCP and never build tmux argv: they ask package tmuxctl for
// operations, and run on the engines under internal/ (waiting, clip,
// framed with its shellframe, echo, match, features, wording), which
// speak their own types: wire.go maps them onto gen's.
//
// Concurrency: a Handlers is safe for concurrent use; every call runs on
// its caller's goroutine. The goroutines a call starts — a wait's
// progress ticker (package waiting) and a launch's exit check — are
// stopped and waited for before the call returns.
package handlers
