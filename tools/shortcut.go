package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Shortcut runs a plain tools/call — params of a name and arguments, no
// _meta — the way go-sdk would, without go-sdk's request path: through
// the same receiving middleware, in the same order, to the same tool
// handler. A transport that finds such a call in its input hands it here
// (see [Shortcut.Claim] and stdio's Transport.SetShortcut) and answers it
// itself.
//
// What it spares is go-sdk's per-request work, which measured more than
// the handler of a read tool: two decodings of the params, each with a
// fresh 32 KiB buffer, a goroutine that grows its stack through the
// middleware, and a second marshalling of the result; on a machine whose
// caches another process keeps cold, 0.1–0.2 ms of a 0.8 ms call.
//
// Middleware reaches both paths only through [Shortcut.AddReceivingMiddleware]
// (TestMiddlewareGoesThroughTheShortcut checks that no other code adds
// any): a middleware added to the SDK alone would be skipped here.
type Shortcut struct {
	offered map[string]bool // the tools the server serves, fixed when built

	mu       sync.RWMutex
	handlers map[string]mcp.ToolHandler // each offered tool, once added
	chain    mcp.MethodHandler          // the middleware around callTool
}

func newShortcut(offered []Tool) *Shortcut {
	sc := &Shortcut{offered: map[string]bool{}, handlers: map[string]mcp.ToolHandler{}}
	for _, t := range offered {
		sc.offered[t.Name] = true
	}
	sc.chain = sc.callTool
	return sc
}

// AddReceivingMiddleware adds middleware to s and to the shortcut alike,
// with go-sdk's order: the first of mw runs first, and each call wraps
// the middleware added before.
func (sc *Shortcut) AddReceivingMiddleware(s *mcp.Server, mw ...mcp.Middleware) {
	s.AddReceivingMiddleware(mw...)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for _, m := range slices.Backward(mw) {
		sc.chain = m(sc.chain)
	}
}

func (sc *Shortcut) add(name string, h mcp.ToolHandler) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.handlers[name] = h
}

// Claim returns how to answer the request of method with params when it
// is a plain tools/call of an offered tool, and false for everything else
// (go-sdk answers that): another method, params with _meta (a progress
// token, the 2026-07-28 protocol's fields) or any key but name and
// arguments, a key twice, a name that is not a string.
func (sc *Shortcut) Claim(method string, params json.RawMessage) (func(context.Context) (any, error), bool) {
	if method != "tools/call" {
		return nil, false
	}
	name, args, ok := plainCall(params)
	if !ok || !sc.offered[name] {
		return nil, false
	}
	return func(ctx context.Context) (any, error) {
		sc.mu.RLock()
		chain := sc.chain
		sc.mu.RUnlock()
		res, err := chain(ctx, "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args}})
		if err != nil {
			return nil, err
		}
		if res == nil {
			return nil, fmt.Errorf("tools/call %s returned no result", name)
		}
		return res, nil
	}, true
}

// callTool is go-sdk v1.8.0's Server.callTool for the tools here: the
// handler, and content that is never null.
func (sc *Shortcut) callTool(ctx context.Context, _ string, req mcp.Request) (mcp.Result, error) {
	call := req.(*mcp.CallToolRequest)
	sc.mu.RLock()
	h := sc.handlers[call.Params.Name]
	sc.mu.RUnlock()
	if h == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", call.Params.Name)}
	}
	res, err := h(ctx, call)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, nil
	}
	if res.Content == nil {
		r := *res
		r.Content = []mcp.Content{}
		res = &r
	}
	return res, nil
}

// plainCall reads params that are an object of a string "name" and,
// optionally, "arguments" (kept as written), each once, and nothing else.
func plainCall(params json.RawMessage) (name string, args json.RawMessage, ok bool) {
	d := json.NewDecoder(bytes.NewReader(params))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return "", nil, false
	}
	var sawName, sawArgs bool
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return "", nil, false
		}
		switch key {
		case "name":
			if sawName || d.Decode(&name) != nil {
				return "", nil, false
			}
			sawName = true
		case "arguments":
			if sawArgs || d.Decode(&args) != nil {
				return "", nil, false
			}
			sawArgs = true
		default:
			return "", nil, false
		}
	}
	return name, args, sawName
}
