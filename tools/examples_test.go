package tools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// exampleFixture is the tmux every catalogue Example is written for
// (docs/adding-a-tool.md): session main ($0) with window @0 of panes %0
// and %1 side by side and window @1 of pane %2, a shell; session other
// ($1) with window @2 of pane %3; buffer b; channel ch signalled. Every
// pane but %2 runs cat, which prints nothing unless typed to.
func exampleFixture(t *testing.T) string {
	sock := tmuxtest.Server(t)
	for _, args := range [][]string{
		{"respawn-pane", "-k", "-t", "%0", "cat"},
		{"split-window", "-d", "-h", "-t", "%0", "cat"},
		{"new-window", "-d", "-t", "main:", "/bin/sh"},
		{"new-session", "-d", "-s", "other", "-x", "80", "-y", "24", "cat"},
		{"set-buffer", "-b", "b", "text"},
		{"wait-for", "-S", "ch"}, // kept for the next wait on ch
	} {
		tmuxtest.Run(t, sock, args...)
	}
	return sock
}

// TestEveryExampleSucceeds calls each catalogue tool with its Example on a
// fresh example fixture, every tool served: the call must succeed, its
// structured content match the output schema, and its last text block be
// that content rendered. A "$commandId" in an Example is the id of
// run_shell_command's own Example, run first.
func TestEveryExampleSucceeds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a tmux server per tool")
	}
	for _, tool := range tools.Catalogue {
		t.Run(tool.Name, func(t *testing.T) {
			sock := exampleFixture(t)
			cs := connect(t, tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock}), tools.Destructive)
			example := tool.Example
			if strings.Contains(example, "$commandId") {
				out := callExample(t, cs, "run_shell_command")
				example = strings.ReplaceAll(example, "$commandId", out["commandId"].(string))
			}
			checkExampleCall(t, cs, tool.Name, example)
		})
	}
}

// callExample calls tool's own Example and returns its structured content.
func callExample(t *testing.T, cs *mcp.ClientSession, name string) map[string]any {
	t.Helper()
	for _, tool := range tools.Catalogue {
		if tool.Name == name {
			return checkExampleCall(t, cs, name, tool.Example)
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func checkExampleCall(t *testing.T, cs *mcp.ClientSession, name, example string) map[string]any {
	t.Helper()
	var args map[string]any
	if err := json.Unmarshal([]byte(example), &args); err != nil {
		t.Fatalf("%s: Example %s is not a JSON object: %v", name, example, err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %s: %v", name, example, err)
	}
	if res.IsError {
		t.Fatalf("%s %s: isError: %s", name, example, textOf(res))
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(schemas.Output(name), &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: resolving output schema: %v", name, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var instance map[string]any
	json.Unmarshal(raw, &instance)
	if err := resolved.Validate(instance); err != nil {
		t.Errorf("%s: structuredContent %s does not validate: %v", name, raw, err)
	}
	rendered, err := tools.RenderJSON(raw)
	if last, ok := res.Content[len(res.Content)-1].(*mcp.TextContent); err != nil || !ok || last.Text != rendered {
		t.Errorf("%s: the last content block is not the rendering of structuredContent (%v):\n%#v\nwant:\n%s", name, err, res.Content[len(res.Content)-1], rendered)
	}
	return instance
}
