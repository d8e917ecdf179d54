package callpath

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkjson "github.com/segmentio/encoding/json"
	"github.com/tmux-mcp/tmux-mcp/schemas"
)

// A Contract is one tool's input and output schemas (schemas/<tool>.*.json),
// resolved on the first call that needs them (a server that is never
// called resolves none) and shared by every path that calls the tool.
type Contract struct {
	tool    string
	once    sync.Once
	in, out *checkedSchema
	err     error
}

// For returns the contract of tool, its schemas not yet resolved.
func For(tool string) *Contract { return &Contract{tool: tool} }

// Name names the tool of a contract made with new, before its first use.
func (c *Contract) Name(tool string) { c.tool = tool }

// Resolve resolves both schemas now, for a test that wants every tool's to
// resolve.
func (c *Contract) Resolve() error {
	_, _, err := c.resolve()
	return err
}

func (c *Contract) resolve() (in, out *checkedSchema, err error) {
	c.once.Do(func() { c.in, c.out, c.err = resolveSchemas(c.tool) })
	return c.in, c.out, c.err
}

// A checkedSchema is a resolved schema with the fast checker compiled
// from it (check.go), nil when the schema uses a keyword the checker does
// not implement.
type checkedSchema struct {
	*jsonschema.Resolved
	fast *Checker
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
// typed AddTool does (mcp/server.go setSchema: defaults validated against
// their schemas).
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
		fast, _ := Compile(rs) // declined: Validate alone
		pair[i] = &checkedSchema{rs, fast}
	}
	return pair[0], pair[1], nil
}

// Arguments decodes a call's arguments the way go-sdk v1.8.0's typed
// AddTool does (mcp/tool.go applySchema, mcp/server.go toolForErr): into
// an object, the schema's defaults applied, validated, then into In. It
// decodes with encoding/json: the SDK's own decoder takes a fresh 32 KiB
// buffer for every value, which made most of a read call's garbage.
func Arguments[In any](c *Contract, args json.RawMessage) (In, *ArgsError) {
	var in In
	schema, _, err := c.resolve()
	if err != nil {
		return in, &ArgsError{err: err}
	}
	m := map[string]any{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &m); err != nil {
			return in, &ArgsError{"unmarshaling arguments: ", sdkDecodeError(args, err), true}
		}
	}
	var v any = m
	if err := schema.applyDefaults(&v); err != nil {
		return in, &ArgsError{"applying schema defaults:\n", err, true}
	}
	if err := schema.validate(&v); err != nil {
		return in, &ArgsError{"", err, true}
	}
	full, err := json.Marshal(v)
	if err != nil {
		return in, &ArgsError{"marshalling with defaults: ", err, true}
	}
	if err := json.Unmarshal(full, &in); err != nil {
		return in, &ArgsError{"", err, false}
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

// An ArgsError is arguments refused at one step of [Arguments]. Its Error
// is go-sdk's wording of the refusal; Unwrap gives the bare reason.
type ArgsError struct {
	step   string // the SDK's words for the step, "" for validation itself
	err    error
	schema bool // refused by the schema step, which the SDK reports as `validating "arguments": …`
}

func (e *ArgsError) Error() string {
	if e.schema {
		return fmt.Sprintf("validating \"arguments\": %s%v", e.step, e.err)
	}
	return e.err.Error()
}

func (e *ArgsError) Unwrap() error { return e.err }

// Result is a handler's result as a tools/call carries it: marshalled,
// checked against the output schema and marshalled again from the checked
// object (so its keys come sorted, as go-sdk's typed AddTool sends them),
// with that object for the text block. For a canonical result (see
// [canonical]) the object is built from the result itself, not decoded,
// and with no defaults to apply the result is marshalled once: the second
// marshal would give the same bytes. An object-less result (never one of
// ours: every output schema is an object) is checked and sent as it is.
func (c *Contract) Result(out any) (json.RawMessage, map[string]any, error) {
	_, schema, err := c.resolve()
	if err != nil {
		return nil, nil, err
	}
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

// Output marshals a result and checks it against the output schema as it
// is (no defaults applied), for a call outside tools/call.
func (c *Contract) Output(out any) (json.RawMessage, error) {
	_, schema, err := c.resolve()
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
	if err := schema.validate(&check); err != nil {
		return nil, fmt.Errorf("does not match its output schema: %v", err)
	}
	return res, nil
}

// A Run is a tool's handler as both paths call it: its result, and the
// content blocks for that result as decoded (nil when it is not an
// object), or an error. A *jsonrpc.Error is answered as a JSON-RPC error,
// any other as an isError result.
type Run[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, func(obj map[string]any) []mcp.Content, error)

// Handler is run behind go-sdk v1.8.0's typed tool-call path done here
// (mcp/server.go toolForErr), once per call: arguments decoded and checked,
// the handler, its result checked, marshalled once, and given to content
// as the object already decoded; each failure in the SDK's words. Register
// it with mcp.Server.AddTool (the untyped AddTool, which leaves all this
// to the handler).
func Handler[In, Out any](c *Contract, run Run[In, Out]) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if _, _, err := c.resolve(); err != nil {
			return nil, err
		}
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		in, refused := Arguments[In](c, args)
		if refused != nil {
			return errorResult(refused), nil
		}
		out, content, err := run(ctx, req, in)
		if err != nil {
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire
			}
			return errorResult(err), nil
		}
		data, obj, err := c.Result(out)
		if err != nil {
			return nil, err
		}
		if obj == nil {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}, StructuredContent: data}, nil
		}
		return &mcp.CallToolResult{Content: content(obj), StructuredContent: data}, nil
	}
}

// AddSDK registers run on go-sdk's own typed path, mcp.AddTool, which
// decodes and checks the arguments and the result itself: the reference
// [Handler] is held equal to (TMUX_MCP_SDK_CALLS=1), and what
// BenchmarkCallPath sets it beside. The content is built from the result
// marshalled and decoded once more, as the SDK keeps its object.
func AddSDK[In, Out any](s *mcp.Server, t *mcp.Tool, run Run[In, Out]) {
	mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		out, content, err := run(ctx, req, in)
		if err != nil {
			return nil, out, err
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, out, err
		}
		var obj map[string]any
		if json.Unmarshal(data, &obj) != nil || obj == nil {
			return nil, out, nil // the SDK's text block: the JSON itself
		}
		return &mcp.CallToolResult{Content: content(obj)}, out, nil
	})
}

// Asked is a handler's arguments as an object, for content that quotes the
// request (defaults applied); nil if they are not one.
func Asked(in any) map[string]any {
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
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(request))
	d.UseNumber()
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}

// AskedFields is [Asked] of in cut to the arguments named: each as Asked
// gives it, absent where Asked leaves it out. It reads only those fields
// where it can, so a call's text block does not marshal and decode its
// whole request to quote one number.
func AskedFields(in any, names []string) map[string]any {
	v := reflect.ValueOf(in)
	if v.Kind() != reflect.Struct {
		return pick(Asked(in), names)
	}
	fields := planOf(v.Type()).fields
	asked := make(map[string]any, len(names))
	for _, name := range names {
		i := slices.IndexFunc(fields, func(f plannedField) bool { return f.name == name })
		if i < 0 {
			continue
		}
		f := fields[i]
		fv := v.Field(f.index)
		if f.omitEmpty && emptyValue(fv) || f.omitZero && fv.IsZero() {
			continue
		}
		a, ok := decoded(fv)
		if f.quoted || !ok {
			return pick(Asked(in), names)
		}
		asked[name] = a
	}
	return asked
}

// pick is m cut to the keys named.
func pick(m map[string]any, names []string) map[string]any {
	out := make(map[string]any, len(names))
	for _, name := range names {
		if a, ok := m[name]; ok {
			out[name] = a
		}
	}
	return out
}

func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}
