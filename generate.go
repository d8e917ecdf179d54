// Code generation for tmux-mcp, in order: gen/ is produced from schemas/ by
// go-jsonschema, one run per schema file (see gen/internal/generate); then
// docs/tools.md and the generated tables of README.md and docs/*.md from the
// catalogue and the schemas (see scripts/docgen). Run `go generate ./...`
// after editing or adding a schema or a catalogue entry; CI fails when gen/
// or the docs differ from what this generates.

package main

//go:generate go run ./gen/internal/generate
//go:generate go run ./scripts/docgen
