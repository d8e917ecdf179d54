package handlers

import (
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/features"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/framed"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// TestEveryFeatureHasAWireName: each tmux feature maps to its own value
// of get_server_info's enum.
func TestEveryFeatureHasAWireName(t *testing.T) {
	var seen []gen.GetServerInfoOutputFeaturesElem
	for f := features.PaneDeadSignal; f <= features.SessionNamesKeepPunctuation; f++ {
		w := wireFeature(f)
		var back gen.GetServerInfoOutputFeaturesElem
		if err := back.UnmarshalJSON([]byte(`"` + string(w) + `"`)); err != nil {
			t.Errorf("feature %d: %v", f, err)
		}
		if slices.Contains(seen, w) {
			t.Errorf("feature %d: %s named twice", f, w)
		}
		seen = append(seen, w)
	}
}

// TestEveryCommandOutcomeHasItsWireName: framed's outcomes and states map
// one to one onto run_shell_command's.
func TestEveryCommandOutcomeHasItsWireName(t *testing.T) {
	outcomes := map[framed.Outcome]gen.RunShellCommandOutputOutcome{
		framed.Completed: "completed", framed.Interrupted: "interrupted", framed.Suspended: "suspended",
		framed.TimedOut: "timed_out", framed.Cancelled: "cancelled", framed.PaneDied: "pane_died", framed.AwaitingInput: "awaiting_input",
	}
	for o, want := range outcomes {
		if got := commandOutcome(o); got != want {
			t.Errorf("outcome %d: %s, want %s", o, got, want)
		}
	}
	states := map[framed.State]gen.RunShellCommandOutputState{
		framed.NotStarted: "not_started", framed.Running: "running", framed.Ended: "ended",
	}
	for s, want := range states {
		if got := commandState(s); got != want {
			t.Errorf("state %d: %s, want %s", s, got, want)
		}
	}
}

// TestCursorPatternAgreesWithTheStreams: a string matches the seed
// schemas' cursor pattern exactly when the streams parse it, or find it
// well formed but beyond any stream (which the waits word apart).
func TestCursorPatternAgreesWithTheStreams(t *testing.T) {
	var schema struct {
		Properties struct{ Cursor struct{ Pattern string } }
	}
	if err := json.Unmarshal(schemas.Input("wait_for_text"), &schema); err != nil {
		t.Fatal(err)
	}
	pattern := regexp.MustCompile(schema.Properties.Cursor.Pattern)
	hex := "0123456789abcdef0123456789abcdef"
	for _, s := range []string{
		"ltxc1." + hex + ".0", "ltxc1." + hex + ".42", "ltxc1." + hex + ".99999999999999999999",
		"ltxc1." + hex + ".042", "ltxc1." + hex + ".", "ltxc1." + hex[1:] + ".1", "ltxc2." + hex + ".1",
		"ltxc1.0123456789ABCDEF0123456789abcdef.1", "",
	} {
		_, _, err := live.ParseCursor(s)
		if ok := err == nil || errors.Is(err, live.ErrCursorBeyond); ok != pattern.MatchString(s) {
			t.Errorf("%q: the pattern matches %v, the streams take it (or find it beyond) %v: %v", s, pattern.MatchString(s), ok, err)
		}
	}
}
