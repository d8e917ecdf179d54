package features

import (
	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// versionFeatures lists behaviours that differ between the tmux releases
// this server supports (3.2a and later), with the versions that have them:
// from (inclusive) and until (exclusive; 0.0 for no end). Taken from tmux's
// CHANGES and checked on the builds the goldens run against.
var versionFeatures = []struct {
	feature     gen.GetServerInfoOutputFeaturesElem
	from, until [2]int
}{
	{gen.GetServerInfoOutputFeaturesElemPaneDeadSignal, [2]int{3, 3}, [2]int{}},
	{gen.GetServerInfoOutputFeaturesElemRemainOnExitFormat, [2]int{3, 3}, [2]int{}},
	{gen.GetServerInfoOutputFeaturesElemDetachedSessionSize, [2]int{3, 3}, [2]int{}},
	{gen.GetServerInfoOutputFeaturesElemPipePaneOnDeadPane, [2]int{}, [2]int{3, 3}}, // 3.3 refuses it (checked on 3.3a)
	{gen.GetServerInfoOutputFeaturesElemInvalidUtf8ShownAsReplacement, [2]int{3, 6}, [2]int{}},
	{gen.GetServerInfoOutputFeaturesElemSessionNamesKeepPunctuation, [2]int{3, 7}, [2]int{}},
}

// Of returns the features of tmux version v, in table order.
func Of(v tmuxctl.Version) []gen.GetServerInfoOutputFeaturesElem {
	out := []gen.GetServerInfoOutputFeaturesElem{}
	for _, f := range versionFeatures {
		if v.AtLeast(f.from[0], f.from[1]) && (f.until == [2]int{} || !v.AtLeast(f.until[0], f.until[1])) {
			out = append(out, f.feature)
		}
	}
	return out
}
