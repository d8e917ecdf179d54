package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tools/callpath"
)

// A Tool is one catalogue entry: how a tool presents itself and who serves
// it. Its wire contract is schemas/<Name>.input.json and
// schemas/<Name>.output.json.
type Tool struct {
	Name        string
	Title       string
	Description string
	Class       Class   // zero is invalid
	World       World   // zero is invalid
	Toolset     Toolset // zero is invalid
	bind        binder
	// Example is one call's arguments, valid against the input schema,
	// that succeeds on the example fixture (docs/adding-a-tool.md): the
	// per-tool tests (happy path, argument fuzzing, read-only check) and
	// the tool's golden start from it. "$commandId" stands for the id of
	// a command the fixture has run.
	Example string
}

// A Class says what a tool may change; the safety tier and all four MCP
// annotation hints derive from it.
type Class int

const (
	_           Class = iota
	ReadOnly          // reads only
	Idempotent        // changes state, but repeating a call changes nothing more
	Mutating          // changes state
	Destructive       // kills, clears or respawns: may lose work
)

// A World says whether a tool reaches beyond tmux itself.
type World int

const (
	_      World = iota
	Closed       // acts on tmux state only
	Open         // runs or types caller-chosen programs and commands
)

// ParseTier reads a --safety value: readonly, mutating or destructive.
func ParseTier(s string) (Class, error) {
	switch strings.ToLower(s) {
	case "readonly", "read-only":
		return ReadOnly, nil
	case "mutating", "":
		return Mutating, nil
	case "destructive":
		return Destructive, nil
	}
	return 0, fmt.Errorf("safety tier %q: want readonly, mutating or destructive", s)
}

// TierName is the --safety spelling of tier.
func TierName(tier Class) string {
	switch tier {
	case ReadOnly:
		return "readonly"
	case Destructive:
		return "destructive"
	}
	return "mutating"
}

// Allowed reports whether a tool of class c is served at safety tier.
func (c Class) Allowed(tier Class) bool { return c <= tier }

func (c Class) annotations(w World) *mcp.ToolAnnotations {
	if c == 0 || w == 0 {
		panic("tools: class and world must be set")
	}
	return &mcp.ToolAnnotations{
		ReadOnlyHint:    c == ReadOnly,
		DestructiveHint: ptr(c == Destructive),
		IdempotentHint:  c == ReadOnly || c == Idempotent,
		OpenWorldHint:   ptr(w == Open),
	}
}

func ptr[T any](v T) *T { return &v }

// A binder registers one tool's handler, and records the Go types and the
// handler it binds so that a test can check them against the tool's name.
type binder struct {
	handler func(h *handlers.Handlers) mcp.ToolHandler             // the tools/call handler (package callpath)
	sdk     func(s *mcp.Server, t *mcp.Tool, h *handlers.Handlers) // the same on go-sdk's typed path (TMUX_MCP_SDK_CALLS=1)
	in, out reflect.Type                                           // the handler's argument and result types
	method  string                                                 // the handler's full name, e.g. "…handlers.(*Handlers).ListPanes"
	direct  directCaller                                           // the handler called outside tools/call (call_read_tools_batch)
	schemas *callpath.Contract                                     // the tool's two schemas, named by the catalogue (see init)
	// probe registers, on go-sdk's typed path, a stand-in taking the
	// tool's arguments type that only records it ran (FuzzToolArguments).
	probe func(s *mcp.Server, t *mcp.Tool, ran *bool)
}

// bind adapts a handler method to a tools/call handler that does what
// go-sdk's typed AddTool would (see package callpath): the arguments are
// checked against the input schema before the method runs and the result
// against the output schema after it returns; a returned error becomes an
// isError result with text only. The text block is the result rendered
// (render.go), after any notes.
func bind[In, Out any](method func(*handlers.Handlers, context.Context, In) (Out, error)) binder {
	c := new(callpath.Contract)
	return binder{
		schemas: c,
		handler: func(h *handlers.Handlers) mcp.ToolHandler { return callpath.Handler(c, run(h, method)) },
		sdk: func(s *mcp.Server, t *mcp.Tool, h *handlers.Handlers) {
			callpath.AddSDK(s, t, run(h, method))
		},
		in:     reflect.TypeFor[In](),
		out:    reflect.TypeFor[Out](),
		method: runtime.FuncForPC(reflect.ValueOf(method).Pointer()).Name(),
		direct: direct(c, method),
		probe: func(s *mcp.Server, t *mcp.Tool, ran *bool) {
			mcp.AddTool(s, t, func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, any, error) {
				*ran = true
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "called"}}}, nil, nil
			})
		},
	}
}

// init names each entry's schemas after the entry.
func init() {
	for _, t := range Catalogue {
		if t.bind.schemas != nil {
			t.bind.schemas.Name(t.Name)
		}
	}
}

// run is method as a tools/call runs it: with progress notifications when
// the request asks for them, and the notes the handler leaves before the
// rendered result.
func run[In, Out any](h *handlers.Handlers, method func(*handlers.Handlers, context.Context, In) (Out, error)) callpath.Run[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, func(map[string]any) []mcp.Content, error) {
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
			return out, nil, err
		}
		return out, func(obj map[string]any) []mcp.Content {
			var content []mcp.Content
			if note := notes(); note != "" {
				content = append(content, &mcp.TextContent{Text: note})
			}
			return append(content, &mcp.TextContent{Text: render(obj, askedOf(obj, in))})
		}, nil
	}
}

// askedOf is what the effective…Ms lines of the text block compare with:
// the arguments they answer, as the handler received them (defaults
// applied); nil when the result has none, which is most calls.
func askedOf(result map[string]any, in any) map[string]any {
	var names []string
	for k := range result {
		if isEffective(k) {
			names = append(names, askedNames(k)...)
		}
	}
	if names == nil {
		return nil
	}
	return callpath.AskedFields(in, names)
}

// Types returns the Go types of the tool's handler's arguments and result.
func (t Tool) Types() (in, out reflect.Type) { return t.bind.in, t.bind.out }

// MCP returns the tool as the SDK advertises it: the schema files verbatim
// and all four annotation hints.
func (t Tool) MCP() *mcp.Tool {
	return &mcp.Tool{
		Name:         t.Name,
		Title:        t.Title,
		Description:  t.Description,
		InputSchema:  schemas.Input(t.Name),
		OutputSchema: schemas.Output(t.Name),
		Annotations:  t.Class.annotations(t.World),
	}
}

// Register adds to s every catalogue tool that sel offers and tier
// allows. A call to any other catalogue tool is refused with an isError
// result naming the flag that would offer it, rather than the bare
// "unknown tool" the SDK would give.
func Register(s *mcp.Server, h *handlers.Handlers, tier Class, sel Selection) {
	RegisterLater(s, h, tier, sel, false)()
}

// RegisterLater is [Register] in two steps. At once it checks the
// catalogue (panicking as Register does) and sets up the refusal of the
// tools not offered and the read tools call_read_tools_batch calls; the
// function it returns adds the offered tools to s. Adding them is most of
// a start's work (go-sdk parses and resolves both schemas of each tool as
// it is added), so a server can answer initialize while it runs, as long
// as it holds every other request until it has returned. With viaSDK
// every tool goes on go-sdk's own typed path (mcp.AddTool) instead of
// package callpath's (TMUX_MCP_SDK_CALLS=1).
func RegisterLater(s *mcp.Server, h *handlers.Handlers, tier Class, sel Selection, viaSDK bool) (add func()) {
	seen := map[string]bool{}
	refused := map[string]string{}
	var offered []Tool
	for _, t := range Catalogue {
		if seen[t.Name] || t.bind.handler == nil || t.Toolset == 0 {
			panic("tools: duplicate, unbound or toolset-less tool " + t.Name)
		}
		seen[t.Name] = true
		if msg := refusal(t, tier, sel); msg != "" {
			refused[t.Name] = msg
			continue
		}
		offered = append(offered, t)
	}
	h.SetReadTools(readTools(h))
	s.AddReceivingMiddleware(refuseUnoffered(refused), nullArgumentsAsEmpty, shortenErrors)
	return func() {
		for _, t := range offered {
			if viaSDK {
				t.bind.sdk(s, t.MCP(), h)
			} else {
				s.AddTool(t.MCP(), t.bind.handler(h))
			}
			// A goroutine that became runnable meanwhile (the one
			// answering initialize, on a busy machine) gets the CPU now
			// rather than at the next preemption, up to 10 ms later.
			runtime.Gosched()
		}
	}
}

// Offered lists the catalogue's tools a server with tier and sel serves,
// in catalogue order: those it registers, and `tmux-mcp tools` lists.
func Offered(tier Class, sel Selection) []Tool {
	var out []Tool
	for _, t := range Catalogue {
		if refusal(t, tier, sel) == "" {
			out = append(out, t)
		}
	}
	return out
}

// refusal is why a call to t is refused, or "" if t is served.
func refusal(t Tool, tier Class, sel Selection) string {
	safety := ""
	if !t.Class.Allowed(tier) {
		safety = "--safety=" + TierName(max(t.Class, Mutating))
	}
	switch {
	case !sel.Offers(t):
		msg := fmt.Sprintf("tool %s is in toolset %s, which this server was not started with; start it with --toolsets %s (or --tools %s)",
			t.Name, t.Toolset, sel.flagValue(t.Toolset), t.Name)
		if safety != "" {
			msg += " and " + safety
		}
		return msg
	case safety != "":
		return fmt.Sprintf("tool %s is disabled: this server runs with --safety=%s and %s needs %s",
			t.Name, TierName(tier), t.Name, safety)
	}
	return ""
}

// nullArgumentsAsEmpty passes a tools/call whose arguments are null on
// with an empty object: go-sdk v1.8.0 panics applying a schema's defaults
// to null (a nil map), which would end the whole server.
func nullArgumentsAsEmpty(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
			if string(bytes.TrimSpace(call.Params.Arguments)) == "null" {
				call.Params.Arguments = json.RawMessage("{}")
			}
		}
		return next(ctx, method, req)
	}
}

func refuseUnoffered(refused map[string]string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && call.Params != nil {
				if msg, off := refused[call.Params.Name]; off {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
				}
			}
			return next(ctx, method, req)
		}
	}
}
