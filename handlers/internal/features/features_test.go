package features

import (
	"slices"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestFeaturesOf(t *testing.T) {
	for _, c := range []struct {
		version string
		want    []Feature
	}{
		{"3.2a", []Feature{PipePaneOnDeadPane}},
		{"3.3a", []Feature{PaneDeadSignal,
			RemainOnExitFormat, DetachedSessionSize}},
		{"3.6a", []Feature{PaneDeadSignal,
			RemainOnExitFormat, DetachedSessionSize,
			InvalidUTF8ShownAsReplacement}},
		{"next-3.8", []Feature{PaneDeadSignal,
			RemainOnExitFormat, DetachedSessionSize,
			InvalidUTF8ShownAsReplacement, SessionNamesKeepPunctuation}},
	} {
		v, err := tmuxctl.ParseVersion("tmux " + c.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := Of(v); !slices.Equal(got, c.want) {
			t.Errorf("Of(%s) = %v, want %v", c.version, got, c.want)
		}
	}
}
