// Command generate writes gen/ from schemas/: for every schema file
// schemas/<tool>.<input|output>.json it runs go-jsonschema (pinned as a
// go.mod tool) into gen/<tool>_<input|output>.gen.go, with the root type
// named <Tool><Input|Output> (the seed schemas have no title to name it
// by). Adding a tool is then two schema files and `go generate ./...`.
//
// The output file names use "_" where the schema names use ".": a dot
// right after "list_windows" would make Go read "_windows" as a GOOS build
// constraint. Run from the module root (go generate does).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run() error {
	schemas, err := filepath.Glob(filepath.Join("schemas", "*.json"))
	if err != nil || len(schemas) == 0 {
		return fmt.Errorf("no schemas/*.json here (run from the module root): %v", err)
	}
	want := map[string]bool{}
	for _, schema := range schemas {
		tool, kind, ok := strings.Cut(strings.TrimSuffix(filepath.Base(schema), ".json"), ".")
		if !ok || (kind != "input" && kind != "output") {
			return fmt.Errorf("%s: want <tool>.input.json or <tool>.output.json", schema)
		}
		out := filepath.Join("gen", tool+"_"+kind+".gen.go")
		want[out] = true
		cmd := exec.Command("go", "tool", "go-jsonschema", "-p", "gen", "--struct-name-from-title",
			"--tags", "json", "--capitalization", "ID",
			"--schema-root-type", "="+camel(tool)+camel(kind), "-o", out, schema)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", schema, err)
		}
	}
	// A schema that was removed takes its generated file with it.
	old, _ := filepath.Glob(filepath.Join("gen", "*.gen.go"))
	for _, f := range old {
		if !want[f] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// camel turns "list_panes" into "ListPanes".
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
