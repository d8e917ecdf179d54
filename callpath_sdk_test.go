package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestCallPathAnswersAsTheSDK sends the same tools/call lines to a server
// whose tools run on package callpath's typed path (the default) and to
// one whose tools go-sdk's own typed path runs (mcp.AddTool,
// TMUX_MCP_SDK_CALLS=1), on one tmux, and wants byte-equal replies:
// results, refusals, argument errors and JSON-RPC errors alike.
func TestCallPathAnswersAsTheSDK(t *testing.T) {
	sock := tmuxtest.Server(t)
	// A fixed window name: automatic-rename may rename the window between
	// the two servers' answers as the shell settles.
	tmuxtest.Run(t, sock, "rename-window", "-t", "%0", "w")
	flags := []string{"--toolsets", "default,inspect"}
	t.Setenv("TMUX_MCP_SDK_CALLS", "1")
	viaSDK := launchMCP(t, sock, "", flags...)
	os.Unsetenv("TMUX_MCP_SDK_CALLS")
	callpath := launchMCP(t, sock, "", flags...)
	long := strings.Repeat("y", 300)
	params := []string{
		`{"name":"get_pane_info","arguments":{"paneId":"%0"}}`,
		`{"arguments":{"paneId":"%0"},"name":"get_pane_info"}`,
		`{"name":"get_pane_info","arguments":{"paneId":"%999"}}`,
		`{"name":"get_pane_info","arguments":{"paneId":5}}`,
		`{"name":"get_pane_info","arguments":{"paneId":"` + long + `"}}`,
		`{"name":"get_pane_info","arguments":{}}`,
		`{"name":"snapshot_pane","arguments":{"paneId":"%0"}}`,
		`{"name":"list_panes","arguments":{}}`,
		`{"name":"list_panes","arguments":null}`,
		`{"name":"list_panes"}`,
		`{ "name" : "list_panes" , "arguments" : { } }`,
		`{"name":"\u006cist_panes","arguments":{}}`,
		`{"name":"list_panes","arguments":{"x":1}}`,
		`{"name":"list_panes","arguments":[1]}`,
		`{"name":"list_panes","arguments":"x"}`,
		`{"name":"list_sessions","arguments":{}}`,
		`{"name":"capture_pane","arguments":{"paneId":"%0"}}`,
		`{"name":"capture_pane","arguments":{"paneId":"%999"}}`,
		`{"name":"kill_server","arguments":{}}`,
		`{"name":"no_such_tool","arguments":{}}`,
		`{"name":7,"arguments":{}}`,
		`{"name":null}`,
		`{"name":"list_panes","name":"list_sessions","arguments":{}}`,
		`{"name":"list_panes","arguments":{},"_meta":{"progressToken":"p"}}`,
		`{}`,
	}
	for i, p := range params {
		for _, id := range []string{fmt.Sprint(7000 + i), fmt.Sprintf("%q", fmt.Sprint("s", i))} {
			line := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + p + `}`
			var replies [2]string
			for j, s := range []*mcpServer{viaSDK, callpath} {
				if err := s.Send(line); err != nil {
					t.Fatal(err)
				}
				reply, err := s.Wait(id, replyBound)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				replies[j] = string(reply)
			}
			if replies[0] != replies[1] {
				t.Errorf("%s\nvia go-sdk: %s\ncallpath:   %s", line, replies[0], replies[1])
			}
		}
	}
}
