package tmuxctl

import (
	"context"
	"strconv"
	"strings"
)

// CaptureOptions select what [Client.Capture] reads. The zero value reads
// the visible screen.
type CaptureOptions struct {
	Start, End  *int // rows: 0 is the screen's top row, negative rows are history
	History     bool // start at the oldest history row (overrides Start)
	JoinWrapped bool // join lines tmux wrapped
	Escapes     bool // keep SGR escapes, as tmux re-encodes them
}

// Capture returns the rows of pane p selected by o, one string per row.
func (c *Client) Capture(ctx context.Context, p PaneID, o CaptureOptions) ([]string, error) {
	argv := []string{"capture-pane", "-p", "-t", string(p)}
	if o.History {
		argv = append(argv, "-S", "-")
	} else if o.Start != nil {
		argv = append(argv, "-S", strconv.Itoa(*o.Start))
	}
	if o.End != nil {
		argv = append(argv, "-E", strconv.Itoa(*o.End))
	}
	if o.JoinWrapped {
		argv = append(argv, "-J")
	}
	if o.Escapes {
		argv = append(argv, "-e")
	}
	out, err := c.command(ctx, argv...)
	if err != nil {
		return nil, err
	}
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil, nil
	}
	lines := strings.Split(out, "\n")
	if o.JoinWrapped {
		// tmux 3.2a keeps the blank cells after each joined line's text
		// (later versions drop them, as capture-pane does without -J).
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
	}
	return lines, nil
}
