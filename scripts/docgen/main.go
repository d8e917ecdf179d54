// Docgen writes the documentation that follows from the tool catalogue
// (tools/catalogue.go) and the schemas: docs/tools.md whole, and the
// generated tables of README.md and docs/*.md, those between
// "<!-- NAME:begin (written by go generate) -->" and "<!-- NAME:end -->"
// (tools.FillDocTables). It writes a file only when it changes.
//
// go generate runs it (generate.go, after gen/ is written); CI fails when
// what it writes differs from the commit. By hand, from the module root:
//
//	go run ./scripts/docgen
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tools"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
}

func run() error {
	var b strings.Builder
	if err := tools.WriteToolsMarkdown(&b); err != nil {
		return err
	}
	toolsMD := filepath.Join("docs", "tools.md")
	if err := writeIfChanged(toolsMD, b.String()); err != nil {
		return err
	}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		return err
	}
	for _, path := range append(docs, "README.md") {
		if path == toolsMD {
			continue
		}
		doc, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		filled, err := tools.FillDocTables(string(doc))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := writeIfChanged(path, filled); err != nil {
			return err
		}
	}
	return nil
}

// writeIfChanged writes text to path unless the file already holds it, so
// that a run that changes nothing leaves every file's time alone.
func writeIfChanged(path, text string) error {
	old, err := os.ReadFile(path)
	if err == nil && string(old) == text {
		return nil
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
