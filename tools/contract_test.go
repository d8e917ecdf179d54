package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// pending are seed tools whose schemas are committed (the contract is
// fixed) but whose behaviour lands in later issues; they must not be served.
var pending = []string{}

// noServer returns a client for a socket no tmux server listens on, for
// tests that only list tools: they must not touch the user's tmux.
func noServer(t *testing.T) *tmuxctl.Client {
	return tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: filepath.Join(t.TempDir(), "none")})
}

func TestAdvertisedSchemasAreTheFiles(t *testing.T) {
	cs := connect(t, noServer(t), tools.Destructive)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tool := range res.Tools {
		listed = append(listed, tool.Name)
		for kind, got := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			gotJSON, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			file, err := schemas.File(tool.Name + "." + kind + ".json")
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			// Compare as values: the SDK re-encodes the raw schema, which
			// may reorder keys but must not change a thing.
			var a, b any
			json.Unmarshal(gotJSON, &a)
			json.Unmarshal(file, &b)
			if ja, jb := canon(t, a), canon(t, b); ja != jb {
				t.Errorf("%s %s schema advertised differs from the file:\n got %s\nwant %s", tool.Name, kind, ja, jb)
			}
		}
	}
	slices.Sort(listed)
	var want []string
	for _, name := range schemas.Tools() {
		if !slices.Contains(pending, name) {
			want = append(want, name)
		}
	}
	if !slices.Equal(listed, want) {
		t.Errorf("tools/list = %v\nschema files (less pending %v) = %v", listed, pending, want)
	}
}

func canon(t *testing.T, v any) string {
	b, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSeedContractUnchanged(t *testing.T) {
	seeds, err := filepath.Glob(filepath.Join("..", "testdata", "seedcontract", "*.json"))
	if err != nil || len(seeds) != 8 {
		t.Fatalf("want the 8 seed contract files in testdata/seedcontract, found %d (%v)", len(seeds), err)
	}
	for _, seed := range seeds {
		want, err := os.ReadFile(seed)
		if err != nil {
			t.Fatal(err)
		}
		got, err := schemas.File(filepath.Base(seed))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("schemas/%s differs from the seed contract; the seed files must stay byte for byte", filepath.Base(seed))
		}
	}
}

func TestCatalogueEntriesComplete(t *testing.T) {
	for _, tool := range tools.Catalogue {
		if tool.Title == "" || len(tool.Description) < 80 {
			t.Errorf("%s: needs a title and a real description", tool.Name)
		}
		if tool.Class == 0 || tool.World == 0 {
			t.Errorf("%s: class and world must be set", tool.Name)
		}
		if slices.Contains(pending, tool.Name) {
			t.Errorf("%s is served but listed as pending", tool.Name)
		}
		if strings.Contains(strings.ToLower(tool.Description), "todo") {
			t.Errorf("%s: description says TODO", tool.Name)
		}
	}
	// All four hints appear on the wire for every tool.
	cs := connect(t, noServer(t), tools.Destructive)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.Annotations)
		for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if !strings.Contains(string(b), `"`+hint+`"`) {
				t.Errorf("%s: annotation %s missing from %s", tool.Name, hint, b)
			}
		}
	}
}

func TestTierFiltersTools(t *testing.T) {
	for _, tier := range []tools.Class{tools.ReadOnly, tools.Mutating, tools.Destructive} {
		// What each tier must list follows from the catalogue's classes.
		var want []string
		for _, tool := range tools.Catalogue {
			if tool.Class <= tier {
				want = append(want, tool.Name)
			}
		}
		slices.Sort(want)
		cs := connect(t, noServer(t), tier)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tool := range res.Tools {
			got = append(got, tool.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("tier %s lists %v, want %v", tools.TierName(tier), got, want)
		}
	}
}

// TestHappyPathOutputsValidate calls tools in one session against a real
// tmux, each on what earlier calls made, and checks its structuredContent
// against the advertised output schema, independently of the SDK's own
// check. Every tool's own happy path is its catalogue Example
// (TestEveryExampleSucceeds); a new tool needs no line here.
func TestHappyPathOutputsValidate(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "set-option", "-g", "remain-on-exit", "on")
	tmuxtest.Run(t, sock, "new-window", "-d", "-t", "main:", "sh", "-c", "exit 3")
	tmuxtest.Run(t, sock, "run-shell", "true")
	cs := connect(t, tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock}), tools.Destructive)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"list_sessions", map[string]any{}},
		{"list_windows", map[string]any{}},
		{"list_panes", map[string]any{}},
		{"list_windows", map[string]any{"sessionName": "main"}},
		{"get_server_info", map[string]any{}},
		{"get_session_info", map[string]any{"sessionId": "$0"}},
		{"get_window_info", map[string]any{"windowId": "@0"}},
		{"get_pane_info", map[string]any{"paneId": "%1"}},
		{"snapshot_pane", map[string]any{"paneId": "%0", "maxLines": 2}},
		{"find_pane_by_position", map[string]any{"windowId": "@0", "x": 1, "y": 1}},
		{"search_panes", map[string]any{"pattern": "Pane is dead", "scrollback": true}},
		{"call_read_tools_batch", map[string]any{"calls": []any{
			map[string]any{"tool": "get_pane_info", "arguments": map[string]any{"paneId": "%0"}},
			map[string]any{"tool": "kill_pane", "arguments": map[string]any{"paneId": "%0"}},
		}}},
		{"create_session", map[string]any{"name": "s#1", "argv": []string{"cat"}}},
		{"create_window", map[string]any{"sessionId": "$0", "argv": []string{"cat"}}},
		{"split_window", map[string]any{"paneId": "%0", "argv": []string{"cat"}}},
		{"send_keys", map[string]any{"paneId": "%0", "keys": "echo hi"}},
		{"send_keys", map[string]any{"paneId": "%0", "keys": []map[string]string{{"text": "echo"}, {"key": "Space"}, {"text": "x"}, {"key": "Enter"}}}},
		{"capture_pane", map[string]any{"paneId": "%0"}},
		{"capture_since", map[string]any{"paneId": "%0"}},
		{"wait_for_text", map[string]any{"paneId": "%0", "patterns": []string{"nothing-prints-this"}, "timeoutMs": 200}},
		{"signal_channel", map[string]any{"channel": "c"}},
		{"wait_for_channel", map[string]any{"channel": "c", "timeout": 5}},
		{"kill_pane", map[string]any{"paneId": "%4"}},
		{"kill_window", map[string]any{"windowId": "@3"}},
		{"kill_session", map[string]any{"sessionId": "$1"}},
		{"wait_for_exit", map[string]any{"paneId": "%1", "timeoutMs": 5000}},
		{"start_program", map[string]any{"argv": []string{"sh", "-c", "exit 4"}, "waitMs": 5000}},
		{"run_program", map[string]any{"argv": []string{"echo", "hi there"}}},
		{"run_shell_command", map[string]any{"paneId": "%0", "command": "echo framed; false"}},
		{"show_option", map[string]any{"scope": "server"}},
		{"set_option", map[string]any{"scope": "session", "targetId": "$0", "name": "@x", "value": "v"}},
		{"show_environment", map[string]any{}},
		{"set_environment", map[string]any{"name": "X", "value": "y"}},
		{"show_hooks", map[string]any{"global": true}},
		{"load_buffer", map[string]any{"name": "b", "text": "t"}},
		{"list_buffers", map[string]any{}},
		{"show_buffer", map[string]any{"name": "b"}},
		{"paste_buffer", map[string]any{"paneId": "%0", "name": "b", "delete": true}},
		{"paste_text", map[string]any{"paneId": "%0", "text": "x"}},
		{"load_buffer", map[string]any{"name": "c", "text": "t"}},
		{"delete_buffer", map[string]any{"name": "c"}},
		{"wait_for_quiet", map[string]any{"paneId": "%0", "quietMs": 50, "timeoutMs": 5000}},
		{"wait_for_input", map[string]any{"paneId": "%0", "timeoutMs": 5000}},
		{"create_session", map[string]any{"name": "arrange", "argv": []string{"cat"}, "width": 80, "height": 24}},
		{"split_window", map[string]any{"paneId": "<arrangePane>", "argv": []string{"cat"}}},
		{"select_window", map[string]any{"windowId": "<arrangeWindow>"}},
		{"select_pane", map[string]any{"paneId": "<splitPane>"}},
		{"select_layout", map[string]any{"windowId": "<arrangeWindow>", "layout": "even-horizontal"}},
		{"resize_pane", map[string]any{"paneId": "<splitPane>", "zoomed": true}},
		{"resize_window", map[string]any{"windowId": "<arrangeWindow>", "width": 100, "height": 30}},
		{"swap_pane", map[string]any{"paneId": "<arrangePane>", "targetPaneId": "<splitPane>"}},
		{"rename_session", map[string]any{"sessionId": "<arrangeSession>", "name": "arranged #{x}"}},
		{"rename_window", map[string]any{"windowId": "<arrangeWindow>", "name": "w #(x)"}},
		{"set_pane_title", map[string]any{"paneId": "<arrangePane>", "title": "t ; x"}},
		{"clear_pane", map[string]any{"paneId": "<arrangePane>", "history": true}},
		{"respawn_pane", map[string]any{"paneId": "<arrangePane>", "argv": []string{"cat"}}},
		{"break_pane", map[string]any{"paneId": "<splitPane>", "name": "broken"}},
		{"join_pane", map[string]any{"paneId": "<splitPane>", "targetPaneId": "<arrangePane>"}},
		{"move_window", map[string]any{"windowId": "<arrangeWindow>", "sessionId": "$0"}},
		{"wait_for_command", map[string]any{"timeoutMs": 5000}}, // commandId: run_shell_command's
	}
	var commandID any
	// The arranging calls name what the "arrange" calls made: ids that
	// depend on what else was made before (run_program's spare pane).
	made := map[string]any{}
	for _, c := range calls {
		if c.tool == "wait_for_command" {
			c.args["commandId"] = commandID
		}
		for k, v := range c.args {
			if name, ok := v.(string); ok && strings.HasPrefix(name, "<") {
				if made[name] == nil {
					t.Fatalf("%s: %s names %s, which no call made", c.tool, k, name)
				}
				c.args[k] = made[name]
			}
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if res.IsError {
			t.Fatalf("%s: isError: %v", c.tool, textOf(res))
		}
		var schema jsonschema.Schema
		if err := json.Unmarshal(schemas.Output(c.tool), &schema); err != nil {
			t.Fatal(err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: resolving output schema: %v", c.tool, err)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		var instance any
		json.Unmarshal(raw, &instance)
		out := instance.(map[string]any)
		switch {
		case c.tool == "run_shell_command":
			commandID = out["commandId"]
		case c.tool == "create_session" && c.args["name"] == "arrange":
			made["<arrangeSession>"], made["<arrangeWindow>"], made["<arrangePane>"] = out["sessionId"], out["windowId"], out["paneId"]
		case c.tool == "split_window" && made["<arrangePane>"] != nil && made["<splitPane>"] == nil:
			made["<splitPane>"] = out["paneId"]
		}
		if err := resolved.Validate(instance); err != nil {
			t.Errorf("%s: structuredContent %s does not validate: %v", c.tool, raw, err)
		}
		rendered, err := tools.RenderJSON(raw)
		if last, ok := res.Content[len(res.Content)-1].(*mcp.TextContent); err != nil || !ok || last.Text != rendered {
			t.Errorf("%s: the last content block is not the rendering of structuredContent (%v):\n%#v\nwant:\n%s", c.tool, err, res.Content[len(res.Content)-1], rendered)
		}
	}
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
