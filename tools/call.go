package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkjson "github.com/segmentio/encoding/json"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tools/internal/schemacheck"
)

// A contract is one tool's input and output schemas, resolved on the first
// call that needs them (a server that is never called resolves none) and
// shared by tools/call and call_read_tools_batch.
type contract struct {
	once    sync.Once
	in, out *checkedSchema
	err     error
}

func (c *contract) resolve(tool string) (in, out *checkedSchema, err error) {
	c.once.Do(func() { c.in, c.out, c.err = resolveSchemas(tool) })
	return c.in, c.out, c.err
}

// A checkedSchema is a resolved schema with the fast checker schemacheck
// compiles from it, nil when the schema uses a keyword schemacheck does
// not implement.
type checkedSchema struct {
	*jsonschema.Resolved
	fast *schemacheck.Checker
}

// validate is jsonschema-go's Validate of *v, skipped when the fast
// checker finds the value valid; a value it refuses goes to Validate,
// whose error is the one reported.
func (s *checkedSchema) validate(v *any) error {
	if s.fast != nil && s.fast.Valid(v) {
		return nil
	}
	return s.Validate(v)
}

// applyDefaults is jsonschema-go's ApplyDefaults, skipped for a schema
// that declares no default anywhere, on which it changes nothing.
func (s *checkedSchema) applyDefaults(v *any) error {
	if s.fast != nil && !s.fast.HasDefaults() {
		return nil
	}
	return s.ApplyDefaults(v)
}

// resolveSchemas resolves tool's input and output schemas as go-sdk's
// typed AddTool does (defaults validated against their schemas).
func resolveSchemas(tool string) (in, out *checkedSchema, err error) {
	var pair [2]*checkedSchema
	for i, raw := range []json.RawMessage{schemas.Input(tool), schemas.Output(tool)} {
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, nil, fmt.Errorf("schema of %s: %v", tool, err)
		}
		rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			return nil, nil, fmt.Errorf("schema of %s: %v", tool, err)
		}
		fast, _ := schemacheck.Compile(rs) // declined: Validate alone
		pair[i] = &checkedSchema{rs, fast}
	}
	return pair[0], pair[1], nil
}

// arguments decodes a call's arguments the way go-sdk v1.8.0's typed
// AddTool does (mcp/tool.go applySchema, mcp/server.go toolForErr): into
// an object, the schema's defaults applied, validated, then into In. It
// decodes with encoding/json: the SDK's own decoder takes a fresh 32 KiB
// buffer for every value, which made most of a read call's garbage.
func arguments[In any](schema *checkedSchema, args json.RawMessage) (In, *argsError) {
	var in In
	m := map[string]any{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &m); err != nil {
			return in, &argsError{"unmarshaling arguments: ", sdkDecodeError(args, err), true}
		}
	}
	var v any = m
	if err := schema.applyDefaults(&v); err != nil {
		return in, &argsError{"applying schema defaults:\n", err, true}
	}
	if err := schema.validate(&v); err != nil {
		return in, &argsError{"", err, true}
	}
	full, err := json.Marshal(v)
	if err != nil {
		return in, &argsError{"marshalling with defaults: ", err, true}
	}
	if err := json.Unmarshal(full, &in); err != nil {
		return in, &argsError{"", err, false}
	}
	return in, nil
}

// sdkDecodeError is the error go-sdk's decoder gives for arguments that
// are not an object (an array, a string), in its words, which differ from
// encoding/json's; err when it takes them after all.
func sdkDecodeError(args json.RawMessage, err error) error {
	d := sdkjson.NewDecoder(bytes.NewReader(args))
	d.DontMatchCaseInsensitiveStructFields()
	var m map[string]any
	if sdkErr := d.Decode(&m); sdkErr != nil {
		return sdkErr
	}
	return err
}

// An argsError is arguments refused at one step of [arguments].
type argsError struct {
	step   string // the SDK's words for the step, "" for validation itself
	err    error
	schema bool // refused by the schema step, which the SDK reports as `validating "arguments": …`
}

// sdkError words e as go-sdk's typed AddTool does.
func (e *argsError) sdkError() error {
	if e.schema {
		return fmt.Errorf("validating \"arguments\": %s%v", e.step, e.err)
	}
	return e.err
}

// structured is a handler's result as a tools/call carries it: marshalled,
// checked against the output schema and marshalled again from the checked
// object (so its keys come sorted, as go-sdk's typed AddTool sends them),
// with that object for the text block. For a canonical result (see
// [canonical]) the object is built from the result itself, not decoded,
// and with no defaults to apply the result is marshalled once: the second
// marshal would give the same bytes. An object-less result (never one of
// ours: every output schema is an object) is checked and sent as it is.
func structured(schema *checkedSchema, out any) (json.RawMessage, map[string]any, error) {
	data, err := json.Marshal(out)
	if err != nil {
		return nil, nil, fmt.Errorf("marshaling output: %w", err)
	}
	rv := reflect.ValueOf(out)
	once := canonical(rv)
	var v any
	built := false
	if once {
		v, built = decoded(rv)
	}
	if !built {
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, nil, fmt.Errorf("validating tool output: unmarshaling output: %w", err)
		}
	}
	obj, isObject := v.(map[string]any)
	if isObject {
		if err := schema.applyDefaults(&v); err != nil {
			return nil, nil, fmt.Errorf("validating tool output: applying schema defaults:\n%w", err)
		}
	}
	if err := schema.validate(&v); err != nil {
		return nil, nil, fmt.Errorf("validating tool output: %w", err)
	}
	if !isObject {
		return data, nil, nil
	}
	if once && schema.fast != nil && !schema.fast.HasDefaults() && !bytes.Contains(data, replacedUTF8) {
		return data, obj, nil // marshalling v again would give data
	}
	if data, err = json.Marshal(v); err != nil {
		return nil, nil, fmt.Errorf("validating tool output: marshalling with defaults: %v", err)
	}
	return data, obj, nil
}

// replacedUTF8 is how encoding/json writes a byte that is not UTF-8; the
// character it stands for marshals as itself, so a result holding one is
// marshalled again, as before.
var replacedUTF8 = []byte(`\ufffd`)

// call is what bind registers for a tool: go-sdk's typed AddTool path done
// here, once per call — arguments decoded and checked, the handler, its
// result checked, marshalled once, and rendered from the object already
// decoded — with the SDK's wording for each failure (shortenErrors then
// rewords argument errors).
func call[In, Out any](name string, c *contract, h *handlers.Handlers, method func(*handlers.Handlers, context.Context, In) (Out, error)) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		inSchema, outSchema, err := c.resolve(name)
		if err != nil {
			return nil, err
		}
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		in, refused := arguments[In](inSchema, args)
		if refused != nil {
			return errorResult(refused.sdkError()), nil
		}
		if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
			ctx = handlers.WithProgress(ctx, func(elapsed, total float64, msg string) {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: elapsed, Total: total, Message: msg,
				})
			})
		}
		ctx, notes := handlers.WithNotes(ctx)
		out, err := method(h, ctx, in)
		if err != nil {
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire
			}
			return errorResult(err), nil
		}
		data, obj, err := structured(outSchema, out)
		if err != nil {
			return nil, err
		}
		// The text block is the structured content rendered for reading
		// (see render.go), after any notes.
		var content []mcp.Content
		if note := notes(); note != "" {
			content = append(content, &mcp.TextContent{Text: note})
		}
		if obj != nil {
			content = append(content, &mcp.TextContent{Text: render(obj, askedOf(obj, in))})
		} else {
			content = append(content, &mcp.TextContent{Text: string(data)})
		}
		return &mcp.CallToolResult{Content: content, StructuredContent: data}, nil
	}
}

// askedOf is the request as the handler received it (defaults applied),
// for the effective…Ms lines of the text block; nil when the result has
// none, which is most calls.
func askedOf(result map[string]any, in any) map[string]any {
	for k := range result {
		if isEffective(k) {
			if v := reflect.ValueOf(in); canonical(v) {
				if asked, ok := decoded(v); ok {
					m, _ := asked.(map[string]any)
					return m
				}
			}
			request, err := json.Marshal(in)
			if err != nil {
				return nil
			}
			asked, _ := decodeObject(request)
			return asked
		}
	}
	return nil
}

func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}
