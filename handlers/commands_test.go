package handlers

import (
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// TestEndedCommandsLastTheGraceAfterTheirLastCall: a stored result is
// found while calls keep coming, and forgotten a grace after the last.
func TestEndedCommandsLastTheGraceAfterTheirLastCall(t *testing.T) {
	now := time.Unix(1000, 0)
	b := newCommandBook(t.TempDir(), time.Minute)
	b.now = func() time.Time { return now }
	c := &command{id: "cmd-1", pane: "%1", result: &gen.RunShellCommandOutput{Outcome: gen.RunShellCommandOutputOutcomeCompleted}, lastCall: now}
	b.byID[c.id], b.byPane[c.pane] = c, c
	for range 3 {
		now = now.Add(50 * time.Second)
		if _, ok := b.find("cmd-1"); !ok {
			t.Fatalf("forgotten 50 s after its last call")
		}
	}
	now = now.Add(61 * time.Second)
	if _, ok := b.find("cmd-1"); ok {
		t.Fatal("still kept 61 s after its last call, with a 60 s grace")
	}
	if b.byPane["%1"] != nil {
		t.Error("the pane still names the forgotten command")
	}
}

// TestOutcomeOfMarkers reads the markers runners print.
func TestOutcomeOfMarkers(t *testing.T) {
	for _, c := range []struct {
		kind   string
		status int
		detail string
		want   gen.RunShellCommandOutputOutcome
		signal string
	}{
		{"end", 0, "", gen.RunShellCommandOutputOutcomeCompleted, ""},
		{"end", 7, "", gen.RunShellCommandOutputOutcomeCompleted, ""},
		{"end", 143, "", gen.RunShellCommandOutputOutcomeInterrupted, "SIGTERM"},
		{"end", 255, "", gen.RunShellCommandOutputOutcomeCompleted, ""},
		{"abort", 130, "INT", gen.RunShellCommandOutputOutcomeInterrupted, "SIGINT"},
		{"abort", 130, "", gen.RunShellCommandOutputOutcomeInterrupted, "SIGINT"},
		{"abort", 258, "", gen.RunShellCommandOutputOutcomeInterrupted, "SIGINT"},
		{"stop", 148, "123", gen.RunShellCommandOutputOutcomeSuspended, "SIGTSTP"},
		{"stop", 0, "123", gen.RunShellCommandOutputOutcomeSuspended, ""},
	} {
		m := markerOf(c.kind, c.status, c.detail)
		if got := outcomeOf(m); got != c.want {
			t.Errorf("%s;%d;%s: outcome %s, want %s", c.kind, c.status, c.detail, got, c.want)
		}
		if got := signalOf(m); got != c.signal {
			t.Errorf("%s;%d;%s: signal %q, want %q", c.kind, c.status, c.detail, got, c.signal)
		}
	}
}

func markerOf(kind string, status int, detail string) frame.Marker {
	return frame.Marker{Nonce: "n", Kind: frame.Kind(kind), Status: status, Detail: detail}
}
