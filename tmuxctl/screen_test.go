package tmuxctl

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

func TestParseScreenGrab(t *testing.T) {
	tests := []struct {
		out  string
		want ScreenGrab
	}{
		{"a\n\nb  \n\n5 2000 4 0 0 0\n", ScreenGrab{Rows: []string{"a", "", "b", ""}, History: 5, Limit: 2000, Height: 4}},
		{"\n0 100 1 1 1 1\n", ScreenGrab{Rows: []string{""}, Limit: 100, Height: 1, Alternate: true, Dead: true, Piped: true}},
	}
	for _, tt := range tests {
		got, err := parseScreenGrab(tt.out)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseScreenGrab(%q) = %+v, %v; want %+v", tt.out, got, err, tt.want)
		}
	}
	if _, err := parseScreenGrab("no numbers here\n"); err == nil {
		t.Error("a line without the numbers parsed")
	}
}

// TestGrabScreen checks a grab against a real pane: the screen, the
// history rows asked for, and the history size; a missing pane is a
// NotFoundError.
func TestGrabScreen(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "new-window", "-d", "-t", "main", "printf 'l%s\\n' $(seq 1 30); "+screenSignal(sock, "printed")+"; exec cat")
	tmuxtest.Run(t, sock, "wait-for", "printed")
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := c.GrabScreen(ctx, "%1", 3)
	if err != nil {
		t.Fatal(err)
	}
	// 30 lines and the cursor's empty row in 24 rows: 7 went to history.
	if g.History != 7 || g.Height != 24 || g.Dead || g.Alternate {
		t.Errorf("numbers: %+v", g)
	}
	if len(g.Rows) != 3+24 || strings.Join(g.Rows[:4], ",") != "l5,l6,l7,l8" || g.Rows[26] != "" {
		t.Errorf("rows: %q", g.Rows)
	}
	var nf *NotFoundError
	if _, err := c.GrabScreen(ctx, "%99", 3); !errors.As(err, &nf) {
		t.Errorf("a missing pane: %v", err)
	}
}

// screenSignal is a shell command that signals channel on the server at sock,
// with the tmux the test runs (the one on PATH may not speak its protocol).
func screenSignal(sock, channel string) string {
	return ShellQuote(tmuxtest.Binary()) + " -S " + ShellQuote(sock) + " wait-for -S " + channel
}

// BenchmarkGrabScreen is one look of a screen watch: a screen and a
// screen of history, over the client's transport.
func BenchmarkGrabScreen(b *testing.B) {
	sock := tmuxtest.Server(b)
	tmuxtest.Run(b, sock, "new-window", "-d", "-t", "main", "seq 1 200; "+screenSignal(sock, "printed")+"; exec cat")
	tmuxtest.Run(b, sock, "wait-for", "printed")
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	var took []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := c.GrabScreen(ctx, "%1", 24); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	reportMedian(b, took)
}
