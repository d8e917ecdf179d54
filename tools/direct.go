package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/tools/callpath"
)

// A directCaller runs a tool's handler on raw JSON arguments outside a
// tools/call, checking input and output against the tool's own schemas the
// way a tools/call does: defaults applied, then validated.
type directCaller func(ctx context.Context, h *handlers.Handlers, tool string, args json.RawMessage) (json.RawMessage, error)

// direct returns the directCaller of method, for one catalogue entry,
// sharing the entry's resolved schemas with its tools/call handler.
func direct[In, Out any](c *callpath.Contract, method func(*handlers.Handlers, context.Context, In) (Out, error)) directCaller {
	return func(ctx context.Context, h *handlers.Handlers, tool string, args json.RawMessage) (json.RawMessage, error) {
		if err := c.Resolve(); err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(args)) == 0 {
			args = nil
		}
		in, refused := callpath.Arguments[In](c, args)
		if refused != nil {
			return nil, fmt.Errorf("arguments of %s: %v", tool, refused.Unwrap())
		}
		out, err := method(h, ctx, in)
		if err != nil {
			return nil, err
		}
		res, err := c.Output(out)
		if err != nil {
			return nil, fmt.Errorf("result of %s %v", tool, err)
		}
		return res, nil
	}
}

// readTools returns every read-only catalogue tool but the batch itself,
// bound to h, for call_read_tools_batch.
func readTools(h *handlers.Handlers) map[string]handlers.ReadTool {
	out := map[string]handlers.ReadTool{}
	for _, t := range Catalogue {
		if t.Class != ReadOnly || t.Name == handlers.BatchTool {
			continue
		}
		call, name := t.bind.direct, t.Name
		out[name] = func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
			return call(ctx, h, name, args)
		}
	}
	return out
}
