package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tools"
)

// runCall is `tmux-mcp call TOOL [JSON|-]`: one tools/call against the
// configured tmux (JSON "-" is read from stdin). It prints the result's text (or, with --json, the whole
// result) and exits 0; a tool error goes to stderr with status 1; a wrong
// command line (no or unknown tool, arguments that are not a JSON object)
// is status 2.
func runCall(ctx context.Context, c *Command, env Env) int {
	if len(env.Args) < 1 || len(env.Args) > 2 {
		fmt.Fprintln(env.Stderr, "tmux-mcp call: usage: tmux-mcp call [--json] TOOL ['{\"argument\":…}']; `tmux-mcp tools` lists the tools")
		return exitUsage
	}
	name := env.Args[0]
	if _, ok := catalogued(name); !ok {
		fmt.Fprintf(env.Stderr, "tmux-mcp call: unknown tool %q; `tmux-mcp tools` lists the tools\n", name)
		return exitUsage
	}
	args := json.RawMessage("{}")
	if len(env.Args) == 2 {
		text := []byte(env.Args[1])
		if env.Args[1] == "-" && env.Stdin != nil { // long arguments (a script) come on stdin
			var err error
			if text, err = io.ReadAll(env.Stdin); err != nil {
				fmt.Fprintf(env.Stderr, "tmux-mcp call: reading the arguments from stdin: %v\n", err)
				return exitUsage
			}
		}
		var obj map[string]any
		if err := json.Unmarshal(text, &obj); err != nil || obj == nil {
			fmt.Fprintf(env.Stderr, "tmux-mcp call: the arguments must be one JSON object, e.g. '{\"paneId\":\"%%1\"}' (or - to read it from stdin): %s\n", jsonProblem(err))
			return exitUsage
		}
		args = json.RawMessage(text)
	}
	// A person who names a tool asks for it: it is offered whatever its
	// toolset, as --tools would add it; the tier still decides.
	cfg := env.Config.WithTool(name)
	cfg.NoSpare = true // one call: a spare would be made only to be removed
	s, err := connect(ctx, cfg)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tmux-mcp call: %v\n", err)
		return exitError
	}
	defer s.Close()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		fmt.Fprintf(env.Stderr, "tmux-mcp call: %s: %v\n", name, err)
		return exitError
	}
	if c.json {
		data, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			fmt.Fprintf(env.Stderr, "tmux-mcp call: %v\n", err)
			return exitError
		}
		fmt.Fprintf(env.Stdout, "%s\n", data)
	}
	if res.IsError {
		fmt.Fprintf(env.Stderr, "%s: %s\n", name, text(res))
		return exitError
	}
	if !c.json {
		fmt.Fprintln(env.Stdout, text(res))
	}
	return exitOK
}

func jsonProblem(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

// catalogued finds a tool in the whole catalogue, whatever the tier: a
// tool above the tier is the server's to refuse, naming the tier.
func catalogued(name string) (tools.Tool, bool) {
	for _, t := range tools.Catalogue {
		if t.Name == name {
			return t, true
		}
	}
	return tools.Tool{}, false
}
