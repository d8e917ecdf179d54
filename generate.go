// Code generation for tmux-mcp: gen/ is produced from schemas/ by
// go-jsonschema, one run per schema file (see gen/internal/generate).
// Run `go generate ./...` after editing or adding a schema; CI fails when
// gen/ differs from what the schemas generate.

package main

//go:generate go run ./gen/internal/generate
