package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// The three ways to reach the server (stdio, HTTP, the tools command)
// build it from one configuration, so the same flags offer the same
// tools. (The HTTP copy once left out the selection: --toolsets all
// listed 21 tools there where stdio listed 48.)
func TestOneBuilderOffersTheSameTools(t *testing.T) {
	sock := tmuxtest.Server(t)
	for _, flags := range [][]string{
		{"--toolsets", "all", "--safety", "destructive"},
		{"--toolsets", "default,buffers", "--tools", "swap_pane"},
		{"--safety", "readonly"},
	} {
		t.Run(strings.Join(flags, " "), func(t *testing.T) {
			fromCLI := toolsCommandList(t, sock, flags)
			fromStdio := stdioList(t, sock, flags)
			fromHTTP := httpList(t, sock, flags)
			if len(fromCLI) == 0 {
				t.Fatal("tmux-mcp tools listed nothing")
			}
			if !slices.Equal(fromStdio, fromCLI) {
				t.Errorf("stdio lists %d tools %v\ntmux-mcp tools lists %d %v", len(fromStdio), fromStdio, len(fromCLI), fromCLI)
			}
			if !slices.Equal(fromHTTP, fromCLI) {
				t.Errorf("HTTP lists %d tools %v\ntmux-mcp tools lists %d %v", len(fromHTTP), fromHTTP, len(fromCLI), fromCLI)
			}
		})
	}
}

// toolsCommandList is what `tmux-mcp tools --json` lists for flags, sorted.
func toolsCommandList(t *testing.T, sock string, flags []string) []string {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := serverCommand(bin, sock, "", append([]string{"tools", "--json"}, flags...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tmux-mcp tools: %v", err)
	}
	var list []struct{ Name string }
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("tmux-mcp tools --json: %v\n%s", err, out)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Name)
	}
	slices.Sort(names)
	return names
}

// stdioList is what the server on stdio lists for flags, sorted.
func stdioList(t *testing.T, sock string, flags []string) []string {
	t.Helper()
	m := launchMCP(t, sock, "", flags...)
	raw, err := m.Call("tools/list", map[string]any{}, replyBound)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var res mcp.ListToolsResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return toolNames(res.Tools)
}

// httpList is what the server over HTTP lists for flags, sorted.
func httpList(t *testing.T, sock string, flags []string) []string {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // the server takes the port; a race with another taker fails loudly below
	const token = "builder-test-token"
	cmd := serverCommand(bin, sock, "", append([]string{"--http", addr}, flags...)...)
	cmd.Env = append(cmd.Env, "TMUX_MCP_HTTP_TOKEN="+token)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(stopGrace):
			cmd.Process.Kill()
			<-done
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), replyBound)
	defer cancel()
	transport := &mcp.StreamableClientTransport{
		Endpoint:   "http://" + addr + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token}},
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "builder-test", Version: "1"}, nil)
	var cs *mcp.ClientSession
	for { // until the server listens
		if cs, err = client.Connect(ctx, transport, nil); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("connecting over HTTP: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list over HTTP: %v", err)
	}
	return toolNames(res.Tools)
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func toolNames(list []*mcp.Tool) []string {
	var names []string
	for _, tool := range list {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// A cursor that one `tmux-mcp call` prints continues in the next: the
// CLI's server watches panes through taps, as the stdio server does, so
// the stream outlives the process. (The CLI once started no taps, and the
// next call refused the cursor as expired.)
func TestCallCursorContinuesInTheNextCall(t *testing.T) {
	sock := tmuxtest.Server(t)
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	tmpdir := privateTmpdir(t)
	pane := strings.TrimSpace(tmuxtest.RunNative(t, sock, "new-session", "-d", "-P", "-F", "#{pane_id}", "cat"))
	call := func(args string) map[string]any {
		t.Helper()
		cmd := serverCommand(bin, sock, tmpdir, "call", "--json", "capture_since", args)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tmux-mcp call capture_since %s: %v\n%s", args, err, out)
		}
		var res struct {
			IsError           bool
			StructuredContent map[string]any
			Content           []struct{ Text string }
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if res.IsError {
			t.Fatalf("capture_since %s: %v", args, res.Content)
		}
		return res.StructuredContent
	}
	first := call(`{"paneId":"` + pane + `"}`)
	cursor, _ := first["cursor"].(string)
	if cursor == "" {
		t.Fatalf("first call printed no cursor: %v", first)
	}
	tmuxtest.RunNative(t, sock, "send-keys", "-t", pane, "-l", "hello from the first call\r")
	second := call(`{"paneId":"` + pane + `","cursor":"` + cursor + `","waitMs":10000}`)
	if text, _ := second["text"].(string); !strings.Contains(text, "hello from the first call") {
		t.Errorf("the second call, from the first's cursor, read %v", second)
	}
}
