package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/mcptest"
)

// An mcpServer is the built tmux-mcp under test (see buildBinary) on a
// private tmux, with its own TMPDIR and its standard error in a file,
// driven by the tests' one MCP client (internal/mcptest) on raw pipes, so
// that a test can close either end or signal it.
type mcpServer struct {
	*mcptest.Process
	stderr string // a file
	// setsNoOptions: a call was seen in flight without its pane option.
	setsNoOptions bool
}

// launchMCP starts tmux-mcp on sock with TMPDIR=tmpdir (a new private one
// when empty) and initializes it. At cleanup it is stopped: EOF, then
// SIGKILL by pid after stopGrace.
func launchMCP(t testing.TB, sock, tmpdir string, args ...string) *mcpServer {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	if tmpdir == "" {
		tmpdir = privateTmpdir(t)
	}
	stderr := filepath.Join(t.TempDir(), "stderr")
	errF, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	cmd := serverCommand(bin, sock, tmpdir, args...)
	cmd.Stderr = errF
	p, err := mcptest.StartProcess(cmd)
	errF.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := &mcpServer{Process: p, stderr: stderr}
	t.Cleanup(func() { p.Stop(stopGrace, replyBound) })
	if _, err := p.Initialize("tmux-mcp-tests", replyBound); err != nil {
		t.Fatalf("%v: %s", err, m.stderrTail())
	}
	return m
}

func (m *mcpServer) pid() int                           { return m.PID() }
func (m *mcpServer) exited() bool                       { return m.HasExited() }
func (m *mcpServer) awaitExit(bound time.Duration) bool { return m.AwaitExit(bound) }

// start sends a request and returns its id.
func (m *mcpServer) start(method string, params any) string {
	id, _ := m.Start(method, params) // a failed write shows as no reply
	return id
}

// startTool sends a tools/call and returns its id.
func (m *mcpServer) startTool(name string, args map[string]any) string {
	return m.start("tools/call", map[string]any{"name": name, "arguments": args})
}

// reply waits at most replyBound for the result of request id.
func (m *mcpServer) reply(id string) (json.RawMessage, error) {
	return m.Result(id, replyBound)
}

var errToolError = errors.New("tool error")

// answer waits for a tool call's reply and returns its structured content;
// an isError result is errToolError.
func (m *mcpServer) answer(tool, id string) (map[string]any, error) {
	raw, err := m.reply(id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	return decodeTool(tool, raw)
}

func (m *mcpServer) tool(name string, args map[string]any) (map[string]any, error) {
	return m.answer(name, m.startTool(name, args))
}

func decodeTool(tool string, raw json.RawMessage) (map[string]any, error) {
	var res struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", tool, err, raw)
	}
	if res.IsError {
		return nil, fmt.Errorf("%s: %w: %s", tool, errToolError, raw)
	}
	if res.StructuredContent == nil {
		return nil, fmt.Errorf("%s: no structured content: %s", tool, raw)
	}
	return res.StructuredContent, nil
}

// mustTool calls a tool and returns its structured content, failing the
// test or benchmark on anything else.
func (m *mcpServer) mustTool(tb testing.TB, name string, args map[string]any) map[string]any {
	tb.Helper()
	return m.mustAnswer(tb, name, m.startTool(name, args))
}

// mustAnswer is answer, failing the test or benchmark on an error.
func (m *mcpServer) mustAnswer(tb testing.TB, name, id string) map[string]any {
	tb.Helper()
	out, err := m.answer(name, id)
	if err != nil {
		tb.Fatalf("%v; %s", err, m.stderrTail())
	}
	return out
}

func (m *mcpServer) stderrTail() string {
	b, _ := os.ReadFile(m.stderr)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return "stderr: " + string(b)
}
