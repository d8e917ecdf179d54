package handlers

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

func TestClampMs(t *testing.T) {
	l := Limits{WaitCeiling: 50 * time.Second}
	for _, tc := range []struct {
		ms   float64
		want time.Duration
	}{
		{1500, 1500 * time.Millisecond},
		{0.5, 500 * time.Microsecond},
		{50000, 50 * time.Second},
		{9007199254740991, 50 * time.Second},
		{1e300, 50 * time.Second},
		{math.Inf(1), 50 * time.Second},
		{-5, 0},
	} {
		if got := l.clampMs(tc.ms); got != tc.want {
			t.Errorf("clampMs(%v) = %v, want %v", tc.ms, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	l := Limits{MaxLines: 200}
	ten, big := 10, 1000
	if l.lines(nil) != 200 || l.lines(&ten) != 10 || l.lines(&big) != 200 {
		t.Error("lines: nil is the server limit; a request is capped at it")
	}
}

// TestWaitEffective checks that the timeout enforced is the request
// clamped to the ceiling, as the results report it.
func TestWaitEffective(t *testing.T) {
	h := &Handlers{limits: Limits{WaitCeiling: 2 * time.Second}, shutdown: context.Background()}
	for _, tc := range []struct {
		ms   float64
		want int
	}{{1500, 1500}, {5000, 2000}, {0, 0}, {waiting.OrDefault(nil), 2000}} {
		w := h.beginWait(context.Background(), tc.ms, "test")
		if got := w.EffectiveMs(); got != tc.want || h.effectiveMs(tc.ms) != tc.want {
			t.Errorf("beginWait(%v): effective %d ms, want %d", tc.ms, got, tc.want)
		}
		w.Done()
	}
}

// testHandlers returns handlers over a private tmux and a hub on it, with
// the client's config completed by cfg (an observer, say), and the socket.
func testHandlers(t testing.TB, limits Limits, cfg tmuxctl.Config) (*Handlers, *tmuxctl.Client, string) {
	t.Helper()
	return testHandlersWith(t, limits, cfg, live.Options{})
}

// testHandlersWith is testHandlers with the hub's options.
func testHandlersWith(t testing.TB, limits Limits, cfg tmuxctl.Config, opts live.Options) (*Handlers, *tmuxctl.Client, string) {
	t.Helper()
	sock := tmuxtest.Server(t)
	cfg.Binary, cfg.SocketPath = tmuxtest.Binary(), sock
	client := tmuxctl.New(cfg)
	hub, err := live.New(client, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	return New(context.Background(), client, hub, limits), client, sock
}
