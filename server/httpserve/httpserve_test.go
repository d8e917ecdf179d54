package httpserve_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/server/httpserve"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

const token = "s3cret-token-for-tests"

// served starts the whole server on a private tmux behind the token, on
// 127.0.0.1, and returns its URL and a channel that gets the context error
// of every tools/call as the server finishes it.
func served(t *testing.T) (url string, callsDone <-chan error) {
	t.Helper()
	sock := tmuxtest.Server(t)
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary, cfg.SocketPath = "test", tmuxtest.Binary(), sock
	cfg.Safety = "mutating"
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 16)
	srv.MCP.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				done <- ctx.Err()
			}
			return res, err
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		served <- httpserve.Serve(context.Background(), ln, httpserve.Handler(srv.MCP, token), stop, srv.CancelCalls)
	}()
	t.Cleanup(func() {
		close(stop)
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		srv.Close()
	})
	return "http://" + ln.Addr().String() + httpserve.Path, done
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connect(t *testing.T, url, tok, version string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{tok, http.DefaultTransport}}}
	cs, err := client.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func TestTokenRequired(t *testing.T) {
	url, _ := served(t)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name, auth string
		want       int
	}{
		{"no token", "", http.StatusUnauthorized},
		{"wrong token", "Bearer not-the-token", http.StatusUnauthorized},
		{"token as basic auth", "Basic " + token, http.StatusUnauthorized},
		{"token with a suffix", "Bearer " + token + "x", http.StatusUnauthorized},
		{"right token", "Bearer " + token, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
			if tc.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("a 401 without WWW-Authenticate")
			}
		})
	}
	// Every path is behind the token, not only /mcp.
	resp, err := http.Get(strings.TrimSuffix(url, httpserve.Path) + "/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /other without a token: status %d, want 401", resp.StatusCode)
	}
	// An SDK client with a wrong token cannot connect.
	if _, err := connect(t, url, "wrong", ""); err == nil {
		t.Fatal("connected with a wrong token")
	}
}

// Both protocol eras: the 2025-11-25 initialize with a session, and the
// 2026-07-28 server/discover with requests that stand alone.
var eras = []string{"2025-11-25", "2026-07-28"}

func TestToolCall(t *testing.T) {
	url, _ := served(t)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			cs, err := connect(t, url, token, era)
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != era {
				t.Fatalf("negotiated %s, want %s", got, era)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_panes", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatalf("list_panes: %v", res.Content)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "paneId=%0") {
				t.Fatalf("list_panes text: %q", text)
			}
		})
	}
}

func TestWaitCancelledByClient(t *testing.T) {
	url, callsDone := served(t)
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			cs, err := connect(t, url, token, era)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for_text",
					Arguments: map[string]any{"paneId": "%0", "patterns": []string{"never printed"}, "timeoutMs": 40000}})
				errc <- err
			}()
			time.Sleep(300 * time.Millisecond) // let the call reach the server; not a measurement
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Fatalf("CallTool after cancel: %v, want context.Canceled", err)
			}
			// The server ends the wait itself, long before its 40 s
			// timeout (the bound only keeps a broken build from hanging).
			select {
			case err := <-callsDone:
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("the server's call ended with %v, want context.Canceled", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the server's wait went on after the client cancelled it")
			}
		})
	}
}

func TestCheckAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8765", "[::1]:8765", "localhost:0", "127.1.2.3:9"} {
		if err := httpserve.CheckAddr(addr, false); err != nil {
			t.Errorf("CheckAddr(%q): %v", addr, err)
		}
	}
	for _, addr := range []string{":8765", "0.0.0.0:8765", "192.168.1.5:80", "example.com:80", "[::]:1"} {
		err := httpserve.CheckAddr(addr, false)
		if err == nil || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "--http-allow-remote") {
			t.Errorf("CheckAddr(%q) = %v, want a refusal naming the address and --http-allow-remote", addr, err)
		}
		if err := httpserve.CheckAddr(addr, true); err != nil {
			t.Errorf("CheckAddr(%q, allowRemote): %v", addr, err)
		}
	}
	if err := httpserve.CheckAddr("8765", false); err == nil {
		t.Error("CheckAddr accepted an address without a port")
	}
}
