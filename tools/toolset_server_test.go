package tools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tools"
)

func TestCallOutsideTheToolsetsNamesTheFlag(t *testing.T) {
	sel, err := tools.ParseSelection("default", "get_pane_info")
	if err != nil {
		t.Fatal(err)
	}
	cs := connectWith(t, noServer(t), tools.Mutating, sel)
	for _, c := range []struct{ tool, want string }{
		{"swap_pane", "tool swap_pane is in toolset arrange, which this server was not started with; " +
			"start it with --toolsets default,arrange (or --tools swap_pane)"},
		{"clear_pane", "tool clear_pane is in toolset arrange, which this server was not started with; " +
			"start it with --toolsets default,arrange (or --tools clear_pane) and --safety=destructive"},
		{"kill_pane", "tool kill_pane is disabled: this server runs with --safety=mutating and kill_pane needs --safety=destructive"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; !res.IsError || got != c.want {
			t.Errorf("%s: isError %v, %q\nwant %q", c.tool, res.IsError, got, c.want)
		}
	}
	listed, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "get_pane_info") || slices.Contains(names, "swap_pane") || slices.Contains(names, "kill_pane") {
		t.Errorf("--toolsets default --tools get_pane_info lists %v", names)
	}
}

// carried is what a model carries of a server's tools/list, measured as
// scripts' carry.py measures it: compact JSON, no HTML escaping.
type carried struct {
	tools, listBytes, modelBytes int
	longest                      string
	longestLen                   int
}

func carry(t *testing.T, tier tools.Class, sel tools.Selection) carried {
	t.Helper()
	res, err := connectWith(t, noServer(t), tier, sel).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	size := func(v any) int {
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		return b.Len() - 1 // the newline Encode adds
	}
	// A 2025-06-18 client gets the tools and these two fields.
	c := carried{tools: len(res.Tools), listBytes: size(struct {
		TTL   int         `json:"ttlMs"`
		Scope string      `json:"cacheScope"`
		Tools []*mcp.Tool `json:"tools"`
	}{res.TTLMs, res.CacheScope, res.Tools})}
	for _, tool := range res.Tools {
		c.modelBytes += len(tool.Description) + size(tool.InputSchema)
		if len(tool.Description) > c.longestLen {
			c.longest, c.longestLen = tool.Name, len(tool.Description)
		}
	}
	return c
}

// TestWhatAModelCarries holds the tool list within its budget: the default
// toolset at most 17,500 bytes (issue 31's budget with wait_for_input) of descriptions and input schemas, every
// tool at most 34,709 for the model and 80,000 of tools/list in all. Sizes
// are deterministic, so these are assertions; -v prints them.
func TestWhatAModelCarries(t *testing.T) {
	def := carry(t, tools.Mutating, tools.Selection{})
	all := carry(t, tools.Destructive, tools.All)
	t.Logf("default (--safety mutating): %d tools, listBytes %d, modelBytes %d", def.tools, def.listBytes, def.modelBytes)
	t.Logf("all (--safety destructive --toolsets all): %d tools, listBytes %d, modelBytes %d; longest description %s (%d)",
		all.tools, all.listBytes, all.modelBytes, all.longest, all.longestLen)
	if def.modelBytes > 17500 {
		t.Errorf("the default toolset carries %d bytes of descriptions and input schemas, want at most 17500", def.modelBytes)
	}
	if all.modelBytes > 34709 || all.listBytes > 80000 {
		t.Errorf("every tool carries %d bytes for the model (want at most 34709) and %d of tools/list (want at most 80000)",
			all.modelBytes, all.listBytes)
	}
	if len(tools.Instructions) < 400 || len(tools.Instructions) > 2048 {
		t.Errorf("the instructions are %d bytes, want 400 to 2048", len(tools.Instructions))
	}
}

// A call to a tool that no catalogue has is refused with go-sdk's error,
// and the server serves on: go-sdk hands the middleware a nil result for
// it, which shortenErrors once dereferenced, ending the whole process.
func TestUnknownToolIsRefusedAndTheServerServesOn(t *testing.T) {
	cs := connect(t, noServer(t), tools.Mutating)
	for range 2 {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), `unknown tool "no_such_tool"`) {
			t.Fatalf("calling no_such_tool: %v, want go-sdk's unknown tool error", err)
		}
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatalf("tools/list after the refusals: %v", err)
	}
}
