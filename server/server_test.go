package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// answerBound is how long a test lets a call take to answer once nothing
// holds it: generous, so a loaded machine passes.
const answerBound = 10 * time.Second

// TestStopInTwoSteps checks the two steps of stopping: EndWaits ends a wait
// in flight as cancelled while other calls still answer normally;
// CancelCalls then cancels those too; Close returns.
func TestStopInTwoSteps(t *testing.T) {
	sock := tmuxtest.Server(t)
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary, cfg.SocketPath = "test", tmuxtest.Binary(), sock
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	waiting := make(chan struct{}, 1)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			select {
			case waiting <- struct{}{}:
			default:
			}
		},
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	waited := make(chan answer, 1)
	go func() {
		p := &mcp.CallToolParams{Name: "wait_for_text", Arguments: map[string]any{
			"paneId": "%0", "patterns": []string{"never printed"}, "timeoutMs": 60_000}}
		p.SetProgressToken("w")
		res, err := cs.CallTool(ctx, p)
		waited <- answer{res, err}
	}()
	select {
	case <-waiting: // its first progress report: the wait is in flight
	case <-time.After(answerBound):
		t.Fatal("the wait sent no progress")
	}

	srv.EndWaits()
	select {
	case a := <-waited:
		if a.err != nil || a.res.IsError {
			t.Fatalf("wait after EndWaits: %v %+v", a.err, a.res)
		}
		if got := a.res.StructuredContent.(map[string]any)["outcome"]; got != "cancelled" {
			t.Errorf("wait after EndWaits: outcome %v, want cancelled", got)
		}
	case <-time.After(answerBound):
		t.Fatal("the wait did not answer after EndWaits")
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_panes", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Errorf("list_panes after EndWaits: %v %+v; calls that do not wait must still answer", err, res)
	}

	srv.CancelCalls()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_panes", Arguments: map[string]any{}})
	if err == nil && !res.IsError {
		t.Errorf("list_panes after CancelCalls succeeded: %+v", res)
	}
}
