package tmuxctl

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// A ScreenGrab is what a pane showed at one moment: the newest history
// rows asked for and the visible screen, with wrapped lines joined, and
// the numbers that say how the pane moved since an earlier grab. The
// rows and the numbers come from one command list, which tmux runs
// without reading the pane's output in between, so they agree.
type ScreenGrab struct {
	Rows      []string // history rows first, then the screen; trailing blank rows kept
	History   int      // rows in the pane's history (history_size) when grabbed
	Limit     int      // the pane's history-limit
	Height    int      // visible rows (pane_height)
	Alternate bool     // a full-screen program's alternate screen is showing
	Dead      bool     // the pane's program has ended (kept by remain-on-exit)
	Piped     bool     // the pane has a pipe-pane (anyone's)
}

// screenFormat is what GrabScreen asks display-message for: numbers and
// flags only, so the line cannot be confused with pane text.
const screenFormat = "#{history_size} #{history_limit} #{pane_height} #{alternate_on} #{pane_dead} #{pane_pipe}"

// GrabScreen captures pane p's visible screen and up to lookback rows of
// its history (wrapped lines joined), for watching a pane whose output
// cannot be streamed. A missing pane is a [NotFoundError].
func (c *Client) GrabScreen(ctx context.Context, p PaneID, lookback int) (ScreenGrab, error) {
	target := string(p)
	// capture-pane comes first: for a missing pane it fails and the list
	// stops, where display-message would print an empty line and succeed.
	out, err := c.commands(ctx,
		[]string{"capture-pane", "-p", "-J", "-t", target, "-S", strconv.Itoa(-max(lookback, 0))},
		[]string{"display-message", "-p", "-t", target, screenFormat},
	)
	if err != nil {
		return ScreenGrab{}, err
	}
	return parseScreenGrab(out)
}

// parseScreenGrab reads GrabScreen's output: the captured rows, then the
// one line of numbers.
func parseScreenGrab(out string) (ScreenGrab, error) {
	out = strings.TrimSuffix(out, "\n")
	body, info := "", out
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		body, info = out[:i], out[i+1:]
	}
	var g ScreenGrab
	var alt, dead, piped int
	if _, err := fmt.Sscanf(info, "%d %d %d %d %d %d", &g.History, &g.Limit, &g.Height, &alt, &dead, &piped); err != nil {
		return ScreenGrab{}, fmt.Errorf("capture-pane: reading the pane's size %q: %w", info, err)
	}
	g.Alternate, g.Dead, g.Piped = alt == 1, dead == 1, piped == 1
	if body != "" || g.Height > 0 {
		g.Rows = strings.Split(body, "\n")
	}
	for i, r := range g.Rows {
		// tmux 3.2a keeps the blank cells after a joined line's text.
		g.Rows[i] = strings.TrimRight(r, " ")
	}
	return g, nil
}
