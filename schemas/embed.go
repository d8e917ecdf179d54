// Package schemas holds the wire contract of every tool: for tool T,
// T.input.json and T.output.json, advertised to clients byte for byte and
// the source of the Go types in package gen.
//
// The files of the four seed tools (wait_for_text, capture_since,
// wait_for_exit, wait_for_channel) are the fixed seed contract and must
// never change.
package schemas

import (
	"embed"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
)

//go:embed *.json
var files embed.FS

// Input returns tool's input schema. It panics if the file is missing, so a
// tool without a contract fails when the server is built, not when called.
func Input(tool string) json.RawMessage { return mustRead(tool + ".input.json") }

// Output returns tool's output schema, or panics like [Input].
func Output(tool string) json.RawMessage { return mustRead(tool + ".output.json") }

// File returns the named schema file's bytes.
func File(name string) ([]byte, error) { return files.ReadFile(name) }

// Tools returns the sorted names of the tools that have schema files.
func Tools() []string {
	entries, _ := fs.ReadDir(files, ".")
	var names []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".input.json")
		if !ok {
			name, ok = strings.CutSuffix(e.Name(), ".output.json")
		}
		if ok && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func mustRead(name string) json.RawMessage {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("schemas: " + err.Error())
	}
	return b
}
