package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tmux-mcp/tmux-mcp/schemas"
)

// TestNewToolIsComplete walks every tool named by schemas/ or the
// catalogue and names every piece of docs/adding-a-tool.md a tool still
// lacks: its two schema files, its catalogue entry and handler, an
// Example its input schema accepts, and a golden named after it. A tool
// missing several pieces gets one error naming all of them.
func TestNewToolIsComplete(t *testing.T) {
	names := schemas.Tools()
	entries := map[string]Tool{}
	for _, tool := range Catalogue {
		entries[tool.Name] = tool
		if !slices.Contains(names, tool.Name) {
			names = append(names, tool.Name)
		}
	}
	slices.Sort(names)
	goldens, err := filepath.Glob(filepath.Join("..", "testdata", "script", "*.txtar"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no goldens in testdata/script: %v", err)
	}
	for _, name := range names {
		if missing := missingPieces(name, entries, goldens); len(missing) > 0 {
			t.Errorf("tool %s is missing (see docs/adding-a-tool.md):\n  - %s", name, strings.Join(missing, "\n  - "))
		}
	}
}

// missingPieces lists what tool name lacks, in the order of
// docs/adding-a-tool.md.
func missingPieces(name string, entries map[string]Tool, goldens []string) []string {
	var missing []string
	input, inErr := schemas.File(name + ".input.json")
	if inErr != nil {
		missing = append(missing, fmt.Sprintf("schemas/%s.input.json (its arguments' JSON Schema)", name))
	}
	if _, err := schemas.File(name + ".output.json"); err != nil {
		missing = append(missing, fmt.Sprintf("schemas/%s.output.json (its result's JSON Schema)", name))
	}
	tool, ok := entries[name]
	if !ok {
		missing = append(missing, fmt.Sprintf("a catalogue entry in tools/catalogue.go (Name %q, Title, Description, Class, World, Toolset, bind, Example), "+
			"binding the handler (*Handlers).%s in handlers/ (run go generate ./... first for gen.%sInput and gen.%sOutput)", name, goName(name), goName(name), goName(name)))
	} else if tool.bind.handler == nil {
		missing = append(missing, fmt.Sprintf("bind: bind((*handlers.Handlers).%s) in its catalogue entry", goName(name)))
	}
	if !ok {
		// no Example to check
	} else if tool.Example == "" {
		missing = append(missing, "Example in its catalogue entry: one call's arguments as JSON that succeed on the example fixture")
	} else if inErr == nil {
		if err := exampleAccepted(input, exampleArgs(tool)); err != nil {
			missing = append(missing, fmt.Sprintf("an Example its input schema accepts: %s: %v", tool.Example, err))
		}
	}
	if !hasGolden(name, goldens) {
		missing = append(missing, fmt.Sprintf("a golden testdata/script/%s-<case>.txtar that calls it (happy path and one bad input; "+
			"go test -run 'TestScripts/^%s-' -update . writes its replies)", name, name))
	}
	return missing
}

// exampleAccepted checks example against the input schema as a tools/call
// would: defaults applied, then validated.
func exampleAccepted(input []byte, example string) error {
	var s jsonschema.Schema
	if err := json.Unmarshal(input, &s); err != nil {
		return fmt.Errorf("the input schema does not parse: %v", err)
	}
	rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return fmt.Errorf("the input schema does not resolve: %v", err)
	}
	var v any = map[string]any{}
	if err := json.Unmarshal([]byte(example), &v); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if err := rs.ApplyDefaults(&v); err != nil {
		return err
	}
	return rs.Validate(&v)
}

// hasGolden reports whether a golden named <name>-*.txtar calls tool name.
func hasGolden(name string, goldens []string) bool {
	for _, g := range goldens {
		if !strings.HasPrefix(filepath.Base(g), name+"-") {
			continue
		}
		data, err := os.ReadFile(g)
		if err == nil && strings.Contains(string(data), `"name":"`+name+`"`) {
			return true
		}
	}
	return false
}

// A tool that is only a name lacks every piece, each named.
func TestMissingPiecesNamesEach(t *testing.T) {
	got := missingPieces("wait_for_nothing", map[string]Tool{}, nil)
	for i, want := range []string{"schemas/wait_for_nothing.input.json", "schemas/wait_for_nothing.output.json",
		"a catalogue entry", "(*Handlers).WaitForNothing", "testdata/script/wait_for_nothing-<case>.txtar"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("piece %d: %q not named in\n%s", i, want, strings.Join(got, "\n"))
		}
	}
	entry := Tool{Name: "list_panes", bind: Catalogue[0].bind, Example: `{"paneId":1}`}
	got = missingPieces("list_panes", map[string]Tool{"list_panes": entry}, nil)
	if len(got) != 2 || !strings.Contains(got[0], "an Example its input schema accepts") || !strings.Contains(got[1], "a golden") {
		t.Errorf("a bad Example and no golden: got\n%s", strings.Join(got, "\n"))
	}
}
