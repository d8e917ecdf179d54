package tmuxctl

import (
	"context"
	"strconv"
	"strings"
)

// SendKeys types keys into pane p. Without literal, a keys string that is a
// tmux key name (C-c, Enter, Up) is sent as that key and anything else is
// typed as text; with literal it is always text. enter presses Enter after.
func (c *Client) SendKeys(ctx context.Context, p PaneID, keys string, literal, enter bool) error {
	if keys != "" {
		argv := []string{"send-keys", "-t", string(p)}
		if literal {
			argv = append(argv, "-l")
		}
		// "--" keeps keys such as "-l" or "-X" from being read as flags.
		if _, err := c.command(ctx, append(argv, "--", keys)...); err != nil {
			return err
		}
	}
	if enter {
		_, err := c.command(ctx, "send-keys", "-t", string(p), "Enter")
		return err
	}
	return nil
}

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
	return strings.Split(out, "\n"), nil
}
