package resources_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server/resources"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A subscriber to a pane's state is told when a command there starts and
// ends, and reads its status.
func TestStateSubscription(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.MarkingBash(t, sock)
	cs, updates := connect(t, sock)
	ctx := context.Background()
	uri := resources.StateURI("%1")
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "(exit 7)", "Enter")
	deadline := time.After(20 * time.Second)
	for {
		select {
		case got := <-updates:
			if got != uri {
				t.Fatalf("update for %s, want %s", got, uri)
			}
		case <-deadline:
			t.Fatal("no update saying the command ended with status 7")
		}
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		var st resources.State
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &st); err != nil {
			t.Fatal(err)
		}
		if st.LastExitStatus != nil {
			if *st.LastExitStatus != 7 || st.Activity != "prompt" || st.LastEnded != 1 {
				t.Fatalf("state %s, want prompt after command 1 with status 7", res.Contents[0].Text)
			}
			break
		}
	}
	// A pane whose shell marks nothing has no activity.
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: resources.StateURI("%0")})
	if err != nil || res.Contents[0].Text != `{"paneId":"%0","commands":0}` {
		t.Fatalf("unmarked pane's state: %v %+v", err, res)
	}
}
