package features

import (
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A Feature is a behaviour that differs between tmux releases.
type Feature int

const (
	PaneDeadSignal                Feature = iota + 1 // #{pane_dead_signal}
	RemainOnExitFormat                               // remain-on-exit-format
	DetachedSessionSize                              // new-session -d sizes by default-size
	PipePaneOnDeadPane                               // pipe-pane works on a dead pane
	InvalidUTF8ShownAsReplacement                    // invalid UTF-8 shows as U+FFFD
	SessionNamesKeepPunctuation                      // session names keep "." and ":"
)

// versionFeatures lists behaviours that differ between the tmux releases
// this server supports (3.2a and later), with the versions that have them:
// from (inclusive) and until (exclusive; 0.0 for no end). Taken from tmux's
// CHANGES and checked on the builds the goldens run against.
var versionFeatures = []struct {
	feature     Feature
	from, until [2]int
}{
	{PaneDeadSignal, [2]int{3, 3}, [2]int{}},
	{RemainOnExitFormat, [2]int{3, 3}, [2]int{}},
	{DetachedSessionSize, [2]int{3, 3}, [2]int{}},
	{PipePaneOnDeadPane, [2]int{}, [2]int{3, 3}}, // 3.3 refuses it (checked on 3.3a)
	{InvalidUTF8ShownAsReplacement, [2]int{3, 6}, [2]int{}},
	{SessionNamesKeepPunctuation, [2]int{3, 7}, [2]int{}},
}

// Of returns the features of tmux version v, in table order.
func Of(v tmuxctl.Version) []Feature {
	out := []Feature{}
	for _, f := range versionFeatures {
		if v.AtLeast(f.from[0], f.from[1]) && (f.until == [2]int{} || !v.AtLeast(f.until[0], f.until[1])) {
			out = append(out, f.feature)
		}
	}
	return out
}
