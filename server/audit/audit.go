package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An Entry is one line of the log.
type Entry struct {
	Time       time.Time `json:"time"`
	Tool       string    `json:"tool"`
	Targets    []string  `json:"targets,omitempty"` // tmux ids ($N, @N, %N) in the arguments and the result
	Outcome    string    `json:"outcome"`           // ok, tool_error, cancelled or protocol_error
	ErrorClass string    `json:"errorClass,omitempty"`
	DurationMs float64   `json:"durationMs"`
}

// A Log appends entries to a writer, one JSON line each. It is safe for
// concurrent use: calls finish in any order.
type Log struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// Open opens (creating, mode 0600) the file to append the log to.
func Open(path string) (*Log, io.Closer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--audit: %w", err)
	}
	return New(f), f, nil
}

// New returns a log writing to w.
func New(w io.Writer) *Log { return &Log{w: w, now: time.Now} }

// Middleware records every tools/call that passes through it.
func (l *Log) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		start := l.now()
		res, err := next(ctx, method, req)
		e := Entry{Time: start.UTC(), Tool: call.Params.Name, DurationMs: float64(l.now().Sub(start).Microseconds()) / 1000}
		targets := map[string]bool{}
		collectIDs(call.Params.Arguments, targets, true)
		// What a call made or acted on is named at the top of its result
		// (start_program's paneId); deeper ids are what it listed.
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && !r.IsError {
			if data, jerr := json.Marshal(r.StructuredContent); jerr == nil {
				collectIDs(data, targets, false)
			}
		}
		e.Targets = sortedKeys(targets)
		e.Outcome, e.ErrorClass = outcome(ctx, res, err)
		l.write(e)
		return res, err
	}
}

func (l *Log) write(e Entry) {
	line, err := json.Marshal(e)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(line, '\n'))
}

// outcome names how a call ended and, for an error, its class: a word
// for what went wrong, never the message (which can quote arguments).
func outcome(ctx context.Context, res mcp.Result, err error) (string, string) {
	if err != nil {
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return "cancelled", ""
		}
		return "protocol_error", "jsonrpc"
	}
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil || !r.IsError {
		if ctx.Err() != nil {
			return "cancelled", ""
		}
		return "ok", ""
	}
	var text string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	return "tool_error", errorClass(text)
}

// errorClasses map words of the server's own error texts (handlers/internal/wording,
// tools' refusals) to classes.
var errorClasses = []struct{ contains, class string }{
	{"is disabled: this server runs with --safety", "tier"},
	{"which this server was not started with", "toolset"},
	{" not found (existing: ", "not_found"},
	{"does not exist", "not_found"}, // a buffer
	{"no tmux server is running", "no_server"},
	{"invalid argument", "invalid_arguments"},
	{"invalid", "invalid_arguments"},
	{"refus", "refused"},
}

func errorClass(text string) string {
	for _, c := range errorClasses {
		if strings.Contains(text, c.contains) {
			return c.class
		}
	}
	return "other"
}

// tmuxID is a session, window or pane id: the only values the log keeps.
var tmuxID = regexp.MustCompile(`^[$@%][0-9]+$`)

// collectIDs adds every string in the JSON object under a key ending in
// "Id" or "Ids" that is a tmux id: at any depth when deep (a batch's
// calls), else only the object's own fields.
func collectIDs(raw json.RawMessage, into map[string]bool, deep bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		if depth > 1 && !deep {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(k, x, depth+1)
			}
		case []any:
			for _, x := range v {
				walk(key, x, depth)
			}
		case string:
			if (strings.HasSuffix(key, "Id") || strings.HasSuffix(key, "Ids")) && tmuxID.MatchString(v) {
				into[v] = true
			}
		}
	}
	walk("", v, 0)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
