package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/schemas"
)

// A directCaller runs a tool's handler on raw JSON arguments outside a
// tools/call, checking input and output against the tool's own schemas the
// way the SDK does for a tools/call: defaults applied, then validated.
type directCaller func(ctx context.Context, h *handlers.Handlers, tool string, args json.RawMessage) (json.RawMessage, error)

// direct returns the directCaller of method, for one catalogue entry. It
// resolves its tool's schemas on its first call and keeps them: state of
// its own, written once, rather than a cache shared by all.
func direct[In, Out any](method func(*handlers.Handlers, context.Context, In) (Out, error)) directCaller {
	var (
		once                sync.Once
		inSchema, outSchema *jsonschema.Resolved
		schemaErr           error
	)
	return func(ctx context.Context, h *handlers.Handlers, tool string, args json.RawMessage) (json.RawMessage, error) {
		once.Do(func() { inSchema, outSchema, schemaErr = resolveSchemas(tool) })
		err := schemaErr
		if err != nil {
			return nil, err
		}
		m := map[string]any{}
		if len(bytes.TrimSpace(args)) > 0 {
			if err := json.Unmarshal(args, &m); err != nil {
				return nil, fmt.Errorf("arguments of %s: %v", tool, err)
			}
		}
		var v any = m
		if err := inSchema.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("arguments of %s: %v", tool, err)
		}
		if err := inSchema.Validate(&v); err != nil {
			return nil, fmt.Errorf("arguments of %s: %v", tool, err)
		}
		full, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		var in In
		if err := json.Unmarshal(full, &in); err != nil {
			return nil, fmt.Errorf("arguments of %s: %v", tool, err)
		}
		out, err := method(h, ctx, in)
		if err != nil {
			return nil, err
		}
		res, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		var check any
		if err := json.Unmarshal(res, &check); err != nil {
			return nil, err
		}
		if err := outSchema.Validate(&check); err != nil {
			return nil, fmt.Errorf("result of %s does not match its output schema: %v", tool, err)
		}
		return res, nil
	}
}

// resolveSchemas resolves tool's input and output schemas.
func resolveSchemas(tool string) (in, out *jsonschema.Resolved, err error) {
	var pair [2]*jsonschema.Resolved
	for i, raw := range []json.RawMessage{schemas.Input(tool), schemas.Output(tool)} {
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, nil, fmt.Errorf("schema of %s: %v", tool, err)
		}
		if pair[i], err = s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
			return nil, nil, fmt.Errorf("schema of %s: %v", tool, err)
		}
	}
	return pair[0], pair[1], nil
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
