package features

import (
	"slices"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func TestFeaturesOf(t *testing.T) {
	for _, c := range []struct {
		version string
		want    []gen.GetServerInfoOutputFeaturesElem
	}{
		{"3.2a", []gen.GetServerInfoOutputFeaturesElem{gen.GetServerInfoOutputFeaturesElemPipePaneOnDeadPane}},
		{"3.3a", []gen.GetServerInfoOutputFeaturesElem{gen.GetServerInfoOutputFeaturesElemPaneDeadSignal,
			gen.GetServerInfoOutputFeaturesElemRemainOnExitFormat, gen.GetServerInfoOutputFeaturesElemDetachedSessionSize}},
		{"3.6a", []gen.GetServerInfoOutputFeaturesElem{gen.GetServerInfoOutputFeaturesElemPaneDeadSignal,
			gen.GetServerInfoOutputFeaturesElemRemainOnExitFormat, gen.GetServerInfoOutputFeaturesElemDetachedSessionSize,
			gen.GetServerInfoOutputFeaturesElemInvalidUtf8ShownAsReplacement}},
		{"next-3.8", []gen.GetServerInfoOutputFeaturesElem{gen.GetServerInfoOutputFeaturesElemPaneDeadSignal,
			gen.GetServerInfoOutputFeaturesElemRemainOnExitFormat, gen.GetServerInfoOutputFeaturesElemDetachedSessionSize,
			gen.GetServerInfoOutputFeaturesElemInvalidUtf8ShownAsReplacement, gen.GetServerInfoOutputFeaturesElemSessionNamesKeepPunctuation}},
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
