package tmuxctl

import (
	"context"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// The benchmarks below compare one bare tmux command sent natively with
// the same command in a spawned tmux, on a private server; scripts/bench.sh
// runs them and prints medians. They print numbers and assert nothing.

var benchArgv = []string{"list-panes", "-a", "-F", "#{pane_id} #{pane_pid} #{pane_current_command}"}

func benchRun(b *testing.B, run func(*Client) func(context.Context, []string, []byte) (reply, error)) {
	sock := tmuxtest.Server(b)
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	fn := run(c)
	ctx := context.Background()
	var took []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if r, err := fn(ctx, benchArgv, nil); err != nil || r.status != 0 {
			b.Fatalf("%v %s", err, r.stderr)
		}
		took = append(took, time.Since(t0))
	}
	reportMedian(b, took)
}

// reportMedian adds the median of took, in µs, beside ns/op (a mean, which
// one slow spawn on a shared machine pulls up).
func reportMedian(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1e3, "median-µs")
}

// BenchmarkListPanesNative is one list-panes over tmux's client protocol:
// connect, identify, command, output, exit.
func BenchmarkListPanesNative(b *testing.B) {
	benchRun(b, func(c *Client) func(context.Context, []string, []byte) (reply, error) { return c.runNative })
}

// BenchmarkListPanesExec is the same list-panes in a spawned tmux.
func BenchmarkListPanesExec(b *testing.B) {
	benchRun(b, func(c *Client) func(context.Context, []string, []byte) (reply, error) { return c.runExec })
}

// wrongVersion is a message from a client of protocol version 7, which a
// server answers with MSG_VERSION before hanging up (proc.c).
var wrongVersion = []byte{byte(imsg.MsgIdentifyDone), 0, 0, 0, imsg.HeaderSize, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}

// BenchmarkConnectOnly is a connection alone (connect, one message the
// server answers at once, close): about the part of a native command a connection made ahead
// of time could save. tmux ends a command client after its one command, so a connection
// cannot carry a second.
func BenchmarkConnectOnly(b *testing.B) {
	sock := tmuxtest.Server(b)
	var took []time.Duration
	for b.Loop() {
		t0 := time.Now()
		conn, err := net.Dial("unix", sock)
		if err != nil {
			b.Fatal(err)
		}
		// Wait for the server to hang up on a client that says nothing, so
		// that connections do not pile up in its listen queue.
		conn.Write(wrongVersion)
		conn.Read(make([]byte, 64))
		conn.Close()
		took = append(took, time.Since(t0))
	}
	reportMedian(b, took)
}
