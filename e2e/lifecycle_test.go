package e2e

// Tests of how tmux-mcp ends (issue 17): at EOF on stdin and on SIGTERM,
// SIGINT and SIGHUP, calls that do not wait answer normally, every wait in
// flight answers cancelled at once with what it saw, and the process
// exits within endBound.

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

const (
	// inFlightWaits is how many waits are in flight when input ends.
	inFlightWaits = 24
	// endBound is what the server promises: it exits this soon after its
	// input ends, waits in flight and all, even with a call stuck on a
	// wedged tmux (server.callGrace and answerGrace). The time is printed.
	endBound = 4 * time.Second
	// endHang is when a test stops waiting for the exit and fails: far
	// past endBound, so a loaded machine does not fail it, but a server
	// that waits out its waits (the 60 s below) cannot pass.
	endHang = 8 * time.Second
	// waitTimeoutMs is each wait's own timeout: far longer than the test,
	// so only the shutdown can end it.
	waitTimeoutMs = 60_000
	// startedBound bounds how long the waits take to be seen in flight.
	startedBound = 30 * time.Second
)

// How a test ends the server's input.
var endings = []struct {
	name string
	end  func(p *mcpServer) error
}{
	{"eof", func(p *mcpServer) error { return p.CloseInput() }},
	{"sigterm", func(p *mcpServer) error { return p.Cmd.Process.Signal(syscall.SIGTERM) }},
	{"sigint", func(p *mcpServer) error { return p.Cmd.Process.Signal(syscall.SIGINT) }},
	{"sighup", func(p *mcpServer) error { return p.Cmd.Process.Signal(syscall.SIGHUP) }},
}

func TestEndWithWaitsInFlight(t *testing.T) {
	skipIfShort(t)
	for _, e := range endings {
		t.Run(e.name, func(t *testing.T) { testEndWithWaitsInFlight(t, e.end) })
	}
}

// testEndWithWaitsInFlight starts inFlightWaits wait_for_text calls on four
// panes that print a tick every 100 ms, once each pane's stream delivers
// ticks, sees every one in flight (each has sent a progress notification)
// and a tick after that on every pane, ends the input with end together with a
// capture_pane call, and checks that the capture answers normally, every
// wait answers cancelled with ticks in its output, and the process exits.
func testEndWithWaitsInFlight(t *testing.T, end func(p *mcpServer) error) {
	sock := tmuxtest.Server(t)
	var panes []string
	for range 4 {
		panes = append(panes, newPane(t, sock, "sh", "-c", "i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.1; done"))
	}
	p := launchMCP(t, sock, "")
	// Each pane's stream delivers ticks before the waits begin: a wait's
	// progress notification says only that it has run a second, and a
	// stream whose tap was still starting (a loaded machine) held nothing
	// yet, so every wait on that pane answered with no ticks.
	for _, pane := range panes {
		awaitTicking(t, p, pane)
	}

	ids := make([]string, inFlightWaits)
	for i := range ids {
		id, err := p.StartTool("wait_for_text", map[string]any{
			"paneId": panes[i%len(panes)], "patterns": []string{"never printed"}, "timeoutMs": waitTimeoutMs,
		}, map[string]any{"progressToken": fmt.Sprintf("wait-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	if missing := awaitProgress(p, inFlightWaits, startedBound); len(missing) > 0 {
		t.Fatalf("waits %v sent no progress within %v: not all in flight", missing, startedBound)
	}
	// And a tick came after the waits were in flight, on every pane.
	for _, pane := range panes {
		awaitTicking(t, p, pane)
	}
	captureID, err := p.StartTool("capture_pane", map[string]any{"paneId": panes[0]}, nil)
	if err != nil {
		t.Fatal(err)
	}

	ended := time.Now()
	if err := end(p); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	answered := make([]time.Duration, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			r, err := p.ToolResult(id, endHang)
			answered[i] = time.Since(ended)
			switch {
			case err != nil:
				t.Errorf("wait %d: %v", i, err)
			case r.IsError:
				t.Errorf("wait %d: isError: %s", i, r.Text())
			case r.StructuredContent["outcome"] != "cancelled":
				t.Errorf("wait %d: outcome %v, want cancelled: %s", i, r.StructuredContent["outcome"], r.Text())
			case !strings.Contains(fmt.Sprint(r.StructuredContent["output"]), "tick"):
				t.Errorf("wait %d: output %q holds none of the ticks it saw", i, r.StructuredContent["output"])
			}
		})
	}
	if r, err := p.ToolResult(captureID, endHang); err != nil {
		t.Errorf("capture_pane sent with the end: %v", err)
	} else if r.IsError || !strings.Contains(fmt.Sprint(r.StructuredContent["text"]), "tick") {
		t.Errorf("capture_pane sent with the end did not answer normally: %s", r.Text())
	}
	wg.Wait()
	if !p.AwaitExit(endHang) {
		t.Fatalf("tmux-mcp still runs %v after its input ended", endHang)
	}
	exited := time.Since(ended)
	last := time.Duration(0)
	for _, d := range answered {
		last = max(last, d)
	}
	t.Logf("%d waits: last answered %v after the end; process exited after %v (bound %v)", len(ids), last.Round(time.Millisecond), exited.Round(time.Millisecond), endBound)
	if exited > endBound {
		t.Logf("exit took longer than the %v bound (a loaded machine?)", endBound)
	}
	if err := p.ExitErr(); err != nil {
		t.Errorf("tmux-mcp exited with %v; want status 0", err)
	}
}

// awaitTicking returns once pane's stream in p has delivered a tick
// printed after it was called: capture_since from the stream's end waits
// for one.
func awaitTicking(t *testing.T, p *mcpServer, pane string) {
	t.Helper()
	cursor, _ := p.mustTool(t, "capture_since", map[string]any{"paneId": pane})["cursor"].(string)
	for range 50 {
		if cursor == "" {
			t.Fatalf("capture_since on %s gave no cursor", pane)
		}
		got := p.mustTool(t, "capture_since", map[string]any{"paneId": pane, "cursor": cursor, "waitMs": 30_000})
		if strings.Contains(fmt.Sprint(got["text"]), "tick") {
			return
		}
		cursor, _ = got["cursor"].(string)
	}
	t.Fatalf("pane %s's stream delivered no tick in 50 reads", pane)
}

// awaitProgress waits until n progress tokens wait-0…wait-(n-1) have each
// been reported once and returns those that were not.
func awaitProgress(p *mcpServer, n int, bound time.Duration) []int {
	deadline := time.Now().Add(bound)
	for {
		seen := map[string]bool{}
		for _, raw := range p.Notifications() {
			var note struct {
				Method string `json:"method"`
				Params struct {
					ProgressToken any `json:"progressToken"`
				} `json:"params"`
			}
			if json.Unmarshal(raw, &note) == nil && note.Method == "notifications/progress" {
				seen[fmt.Sprint(note.Params.ProgressToken)] = true
			}
		}
		var missing []int
		for i := range n {
			if !seen[fmt.Sprintf("wait-%d", i)] {
				missing = append(missing, i)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			return missing
		}
		time.Sleep(50 * time.Millisecond)
	}
}
