package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/gen"
)

// A ReadTool runs one read-only tool on raw JSON arguments, checking them
// against the tool's input schema and its structured result against its
// output schema, as a tools/call would.
type ReadTool func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)

// BatchTool is the name of call_read_tools_batch, which never calls itself.
const BatchTool = "call_read_tools_batch"

// SetReadTools gives call_read_tools_batch the tools it may call: the
// catalogue's read-only tools, by name. The catalogue sets them when it
// registers the tools.
func (h *Handlers) SetReadTools(tools map[string]ReadTool) {
	h.readTools = tools
}

// CallReadToolsBatch runs several read-only tools one after another and
// returns a result or an error for each. Calls stop being run once the
// batch has used the wait ceiling or its results have reached the byte
// ceiling; those rows say so.
func (h *Handlers) CallReadToolsBatch(ctx context.Context, in gen.CallReadToolsBatchInput) (gen.CallReadToolsBatchOutput, error) {
	bctx, cancel := h.waitContext(ctx, h.limits.WaitCeiling)
	defer cancel()
	out := gen.CallReadToolsBatchOutput{Results: make([]gen.ReadToolResult, len(in.Calls))}
	size := 0
	for i, call := range in.Calls {
		row := gen.ReadToolResult{Index: i, Tool: call.Tool}
		var err error
		switch {
		case ctx.Err() != nil:
			return gen.CallReadToolsBatchOutput{}, ctx.Err()
		case bctx.Err() != nil:
			err = fmt.Errorf("not run: the batch used the server's wait ceiling (%v) before reaching this call", h.limits.WaitCeiling)
		case size >= h.limits.MaxBytes:
			err = fmt.Errorf("not run: the results before it reached the server's byte ceiling (%d bytes); call it on its own or in a later batch", h.limits.MaxBytes)
		default:
			var result gen.CallReadToolsBatchOutputResultsElemResult
			result, err = h.callReadTool(bctx, call)
			if err == nil {
				row.Ok, row.Result = true, &result
				b, _ := json.Marshal(result)
				size += len(b)
			}
		}
		if err != nil {
			msg := err.Error()
			row.Error = &msg
			out.Failed++
		} else {
			out.Succeeded++
		}
		out.Results[i] = row
	}
	return out, nil
}

func (h *Handlers) callReadTool(ctx context.Context, call gen.ReadToolCall) (gen.CallReadToolsBatchOutputResultsElemResult, error) {
	tool, ok := h.readTools[call.Tool]
	if !ok {
		if call.Tool == BatchTool {
			return nil, fmt.Errorf("%s cannot call itself", BatchTool)
		}
		return nil, fmt.Errorf("%s is not a read-only tool of this server; the ones a batch can call: %s", call.Tool,
			strings.Join(slices.Sorted(maps.Keys(h.readTools)), ", "))
	}
	args := call.Arguments
	if args == nil {
		args = gen.CallReadToolsBatchInputCallsElemArguments{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	res, err := tool(ctx, raw)
	if err != nil {
		return nil, err
	}
	var result gen.CallReadToolsBatchOutputResultsElemResult
	if err := json.Unmarshal(res, &result); err != nil {
		return nil, fmt.Errorf("%s returned a result that is not an object: %v", call.Tool, err)
	}
	return result, nil
}
