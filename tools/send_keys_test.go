package tools_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// send_keys types text up to its limit in bytes (16 KiB), beyond what tmux
// takes in one command, and refuses more by name.
func TestSendKeysLongText(t *testing.T) {
	sock := tmuxtest.Server(t)
	out := filepath.Join(t.TempDir(), "typed")
	tmuxtest.Run(t, sock, "new-window", "-d", "sh", "-c", "stty raw -echo; exec cat > "+out)
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs, stop := serve(t, client, tools.Mutating, nil)
	defer stop()
	text := strings.Repeat("é", 8190) + "end" // 16383 bytes
	call := func(keys any) *mcp.CallToolResult {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "send_keys",
			Arguments: map[string]any{"paneId": "%1", "keys": keys, "enter": false}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := call(text); res.IsError {
		t.Fatalf("16383 bytes: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	if res := call([]any{map[string]any{"text": text}}); res.IsError {
		t.Fatalf("16383 bytes as a text item: %v", res.Content[0].(*mcp.TextContent).Text)
	}
	if res := call(text + "ü"); !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "paste_text") {
		t.Errorf("16385 bytes were not refused with a pointer to paste_text: %+v", res.Content)
	}
	want := text + text
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := os.ReadFile(out)
		if string(got) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane's program read %d bytes, want %d", len(got), len(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
