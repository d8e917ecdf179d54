package main

import (
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// Tool round trips with each way of reaching tmux: the native client
// (tmux's own protocol, the default) and the spawned binary
// (--tmux-client exec), for the ratios issue 19 asks about. Printed,
// never asserted; scripts/bench.sh runs them.

var benchClients = []struct{ name, flag string }{{"native", "native"}, {"exec", "exec"}}

// benchTool measures one tool call's median round trip on each client.
func benchTool(b *testing.B, name string, args func(sock string) map[string]any, after func(*mcpServer, map[string]any)) {
	for _, cl := range benchClients {
		b.Run(cl.name, func(b *testing.B) {
			sock := tmuxtest.Server(b)
			// destructive: create_session's benchmark kills what it made.
			c := launchMCP(b, sock, "", "--tmux-client", cl.flag, "--safety", "destructive", "--toolsets", "all")
			a := args(sock)
			var rtt []time.Duration
			for b.Loop() {
				t0 := time.Now()
				out := c.mustTool(b, name, a)
				rtt = append(rtt, time.Since(t0))
				if after != nil {
					after(c, out)
				}
			}
			b.ReportMetric(ms(median(rtt)), "median-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func pane0(string) map[string]any { return map[string]any{"paneId": "%0"} }

func BenchmarkToolGetPaneInfo(b *testing.B)  { benchTool(b, "get_pane_info", pane0, nil) }
func BenchmarkToolCapturePane(b *testing.B)  { benchTool(b, "capture_pane", pane0, nil) }
func BenchmarkToolSnapshotPane(b *testing.B) { benchTool(b, "snapshot_pane", pane0, nil) }
func BenchmarkToolListSessions(b *testing.B) {
	benchTool(b, "list_sessions", func(string) map[string]any { return map[string]any{} }, nil)
}
func BenchmarkToolListPanes(b *testing.B) {
	benchTool(b, "list_panes", func(string) map[string]any { return map[string]any{} }, nil)
}

// BenchmarkToolCreateSession times create_session alone (with the default
// shell: an argv would add --start-grace to every call); the session is
// killed after each timed call.
func BenchmarkToolCreateSession(b *testing.B) {
	benchTool(b, "create_session", func(string) map[string]any { return map[string]any{} },
		func(c *mcpServer, out map[string]any) {
			c.mustTool(b, "kill_session", map[string]any{"sessionId": out["sessionId"], "force": true})
		})
}

// BenchmarkToolConcurrentGetPaneInfo makes 16 get_pane_info calls at once
// and reports answers per second.
func BenchmarkToolConcurrentGetPaneInfo(b *testing.B) {
	for _, cl := range benchClients {
		b.Run(cl.name, func(b *testing.B) {
			sock := tmuxtest.Server(b)
			c := launchMCP(b, sock, "", "--tmux-client", cl.flag, "--toolsets", "all")
			var calls int
			t0 := time.Now()
			for b.Loop() {
				var wg sync.WaitGroup
				for range 16 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						c.mustTool(b, "get_pane_info", map[string]any{"paneId": "%0"})
					}()
				}
				wg.Wait()
				calls += 16
			}
			b.ReportMetric(float64(calls)/time.Since(t0).Seconds(), "answers/s")
			b.ReportMetric(0, "ns/op")
		})
	}
}
