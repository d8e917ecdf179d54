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

// TestWaitsSendProgress checks that a wait reports progress when, and only
// when, the client passed a progress token.
func TestWaitsSendProgress(t *testing.T) {
	sock := tmuxtest.Server(t)
	ctx := context.Background()
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cs, stop := serve(t, client, tools.Mutating, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		},
	})
	t.Cleanup(stop)

	call := func(token any) {
		p := &mcp.CallToolParams{Name: "wait_for_text", Arguments: map[string]any{
			"paneId": "%0", "patterns": []string{"never printed"}, "timeoutMs": 1600}}
		if token != nil {
			p.SetProgressToken(token)
		}
		if _, err := cs.CallTool(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	call(nil)
	mu.Lock()
	if len(got) != 0 {
		t.Errorf("progress sent without a token: %+v", got[0])
	}
	mu.Unlock()
	call("tok-1")
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notification during a 1.6 s wait with a token")
	}
	if got[0].ProgressToken != "tok-1" || got[0].Total != 1600 || got[0].Progress <= 0 {
		t.Errorf("progress = %+v, want token tok-1, total 1600, progress > 0", got[0])
	}
}
