package tools

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Claim takes a plain tools/call of an offered tool and nothing else.
func TestShortcutClaimsPlainCallsOnly(t *testing.T) {
	sel, err := ParseSelection("default", "")
	if err != nil {
		t.Fatal(err)
	}
	var offered []Tool
	for _, tool := range Catalogue {
		if refusal(tool, Mutating, sel) == "" {
			offered = append(offered, tool)
		}
	}
	sc := newShortcut(offered)
	for _, c := range []struct {
		method, params string
		want           bool
	}{
		{"tools/call", `{"name":"list_panes","arguments":{}}`, true},
		{"tools/call", `{"arguments":{"a":[1,{"b":2}]},"name":"list_panes"}`, true},
		{"tools/call", ` { "name" : "list_panes" } `, true},
		{"tools/call", `{"name":"list_panes","arguments":null}`, true},
		{"tools/list", `{"name":"list_panes"}`, false},
		{"tools/call", `{"name":"kill_server","arguments":{}}`, false}, // not offered: refused by the SDK path
		{"tools/call", `{"name":"no_such_tool"}`, false},
		{"tools/call", `{"name":"list_panes","_meta":{"progressToken":1}}`, false},
		{"tools/call", `{"name":"list_panes","arguments":{},"task":{}}`, false},
		{"tools/call", `{"name":"list_panes","name":"list_panes"}`, false},
		{"tools/call", `{"name":"list_panes","arguments":{},"arguments":{}}`, false},
		{"tools/call", `{"name":7}`, false},
		{"tools/call", `{"arguments":{}}`, false},
		{"tools/call", `["list_panes"]`, false},
		{"tools/call", `"list_panes"`, false},
	} {
		if _, got := sc.Claim(c.method, json.RawMessage(c.params)); got != c.want {
			t.Errorf("Claim(%s, %s) = %v, want %v", c.method, c.params, got, c.want)
		}
	}
}

// Middleware added to the MCP server alone would be skipped by the
// shortcut's calls: every addition goes through
// Shortcut.AddReceivingMiddleware.
func TestMiddlewareGoesThroughTheShortcut(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			call := strings.Contains(line, "AddReceivingMiddleware(")
			allowed := strings.Contains(line, "sc.AddReceivingMiddleware(") || strings.Contains(line, "srv.AddReceivingMiddleware(") ||
				strings.Contains(line, "s.Shortcut.AddReceivingMiddleware(") || strings.Contains(line, "s.AddReceivingMiddleware(mw...)") ||
				strings.Contains(line, "s.AddReceivingMiddleware(s.") || strings.HasPrefix(strings.TrimSpace(line), "//") ||
				strings.Contains(line, "func (")
			if call && !allowed {
				t.Errorf("%s:%d adds middleware to the MCP server alone: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
