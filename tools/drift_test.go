package tools

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/schemas"
	"golang.org/x/tools/txtar"
)

// goName is a wire name in Go: "list_panes" is "ListPanes".
func goName(wire string) string {
	var b strings.Builder
	for _, part := range strings.Split(wire, "_") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// TestCatalogueBindsItsOwnTypes checks that each entry binds the handler
// named after the tool, taking and returning the types generated from the
// tool's own schema files: a catalogue line that pairs list_panes with
// ListWindows compiles, but fails here.
func TestCatalogueBindsItsOwnTypes(t *testing.T) {
	for _, tool := range Catalogue {
		name := goName(tool.Name)
		for _, c := range []struct {
			typ  reflect.Type
			want string
		}{{tool.bind.in, name + "Input"}, {tool.bind.out, name + "Output"}} {
			if c.typ.Name() != c.want || !strings.HasSuffix(c.typ.PkgPath(), "/gen") {
				t.Errorf("%s binds %s.%s, want gen.%s", tool.Name, c.typ.PkgPath(), c.typ.Name(), c.want)
			}
		}
		if !strings.HasSuffix(tool.bind.method, ".(*Handlers)."+name) {
			t.Errorf("%s is bound to %s, want (*Handlers).%s", tool.Name, tool.bind.method, name)
		}
	}
}

// TestRequiredOutputFieldsAreSet fails when a required field of a tool's
// output schema holds its zero value (false, 0, "", null, empty) in every
// result the goldens record for that tool: a field added to a schema but
// never set by its handler, or a case no golden covers.
func TestRequiredOutputFieldsAreSet(t *testing.T) {
	seen := map[string]map[string]bool{} // tool → fields seen set
	results := map[string]int{}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens found: %v", err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sections := map[string][]byte{}
		for _, f := range ar.Files {
			sections[f.Name] = f.Data
		}
		for name, data := range sections {
			if !strings.HasSuffix(name, ".jsonl") || name == "want.jsonl" {
				continue
			}
			want := sections[strings.TrimSuffix(name, ".jsonl")+".want"]
			if name == "calls.jsonl" && want == nil {
				want = sections["want.jsonl"]
			}
			tools := map[string]string{} // request id → tool
			for _, line := range strings.Split(string(data), "\n") {
				var req struct {
					ID     json.RawMessage
					Method string
					Params struct{ Name string }
				}
				if json.Unmarshal([]byte(line), &req) == nil && req.Method == "tools/call" {
					tools[string(req.ID)] = req.Params.Name
				}
			}
			for _, text := range goldenReplies(string(want)) {
				// Scrubbed numbers (pids, times) stand as bare words: they
				// were real, non-zero values.
				text = scrubbed.ReplaceAllString(text, `$1:1`)
				var reply struct {
					ID     json.RawMessage
					Result struct{ StructuredContent map[string]any }
				}
				if json.Unmarshal([]byte(text), &reply) != nil || reply.Result.StructuredContent == nil {
					continue
				}
				tool := tools[string(reply.ID)]
				if tool == "" {
					continue
				}
				results[tool]++
				if seen[tool] == nil {
					seen[tool] = map[string]bool{}
				}
				for k, v := range reply.Result.StructuredContent {
					if !isZero(v) {
						seen[tool][k] = true
					}
				}
			}
		}
	}
	for _, tool := range Catalogue {
		var schema struct{ Required []string }
		if err := json.Unmarshal(schemas.Output(tool.Name), &schema); err != nil {
			t.Fatal(err)
		}
		if results[tool.Name] == 0 {
			t.Errorf("%s: no golden records a result of it", tool.Name)
			continue
		}
		var never []string
		for _, field := range schema.Required {
			if !seen[tool.Name][field] {
				never = append(never, field)
			}
		}
		slices.Sort(never)
		if len(never) > 0 {
			t.Errorf("%s: in %d golden results, required fields never set: %v", tool.Name, results[tool.Name], never)
		}
	}
}

// goldenReplies returns the replies mcp-replay printed: each starts on a
// line of its own with "{" and may go on over the lines after it (a
// result's structuredContent, one field per line).
func goldenReplies(want string) []string {
	var replies []string
	var cur []string
	for _, line := range strings.Split(want, "\n") {
		switch {
		case strings.HasPrefix(line, "{"):
			if cur != nil {
				replies = append(replies, strings.Join(cur, "\n"))
			}
			cur = []string{line}
		case cur != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "}")):
			cur = append(cur, line)
		default:
			if cur != nil {
				replies = append(replies, strings.Join(cur, "\n"))
			}
			cur = nil
		}
	}
	if cur != nil {
		replies = append(replies, strings.Join(cur, "\n"))
	}
	return replies
}

var scrubbed = regexp.MustCompile(`("[A-Za-z]+\\?"):[A-Z]{2,}\b`)

func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}
