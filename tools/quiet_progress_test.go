package tools_test

import (
	"context"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// TestQuietWaitSendsProgress checks that wait_for_quiet reports progress
// while it waits, as wait_for_text does, when the client passed a token.
func TestQuietWaitSendsProgress(t *testing.T) {
	sock := tmuxtest.Server(t)
	ctx := context.Background()
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs, stop := serve(t, client, tools.Mutating, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		},
	})
	t.Cleanup(stop)
	// The session's shell prints nothing: quiet after 1.6 s, with a
	// progress notification each second before that.
	p := &mcp.CallToolParams{Name: "wait_for_quiet", Arguments: map[string]any{"paneId": "%0", "quietMs": 1600, "timeoutMs": 20000}}
	p.SetProgressToken("tok")
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("wait_for_quiet: %s", textOf(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notification during a 1.6 s quiet wait with a token")
	}
	if got[0].ProgressToken != "tok" || got[0].Total != 20000 || got[0].Progress <= 0 {
		t.Errorf("progress = %+v, want token tok, total 20000, progress > 0", got[0])
	}
}
