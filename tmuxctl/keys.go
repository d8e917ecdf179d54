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
	var cmds [][]string
	if keys != "" {
		argv := []string{"send-keys", "-t", string(p)}
		if literal {
			argv = append(argv, "-l")
		}
		// "--" keeps keys such as "-l" or "-X" from being read as flags.
		cmds = append(cmds, append(argv, "--", keys))
	}
	if enter {
		cmds = append(cmds, []string{"send-keys", "-t", string(p), "Enter"})
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err := c.commands(ctx, cmds...)
	return err
}

// A KeyItem is one part of a key sequence: Text, typed literally, or Key,
// a key name (see [ParseKey]).
type KeyItem struct {
	Text string
	Key  string
}

// SendSequence sends items to pane p in order, text literally (send-keys
// -l) and keys by name, all from one tmux client, so nothing typed by
// anyone else can fall between them.
func (c *Client) SendSequence(ctx context.Context, p PaneID, items []KeyItem) error {
	var cmds [][]string
	for _, it := range items {
		if it.Key != "" {
			// "--" keeps a key such as "-" from being read as a flag.
			cmds = append(cmds, []string{"send-keys", "-t", string(p), "--", it.Key})
		} else if it.Text != "" {
			cmds = append(cmds, []string{"send-keys", "-t", string(p), "-l", "--", it.Text})
		}
	}
	if len(cmds) == 0 {
		return nil
	}
	_, err := c.commands(ctx, cmds...)
	return err
}

// TypeLine types line into pane p's program as one line and submits it:
// first leaving copy mode when leaveMode is set, and clearing what is
// already typed (C-u), so the program reads exactly line. One tmux client
// does it all.
func (c *Client) TypeLine(ctx context.Context, p PaneID, line string, leaveMode bool) error {
	target := string(p)
	var cmds [][]string
	if leaveMode {
		cmds = append(cmds, []string{"send-keys", "-t", target, "q"})
	}
	cmds = append(cmds,
		[]string{"send-keys", "-t", target, "C-u"},
		[]string{"send-keys", "-t", target, "-l", "--", line},
		[]string{"send-keys", "-t", target, "Enter"},
	)
	_, err := c.commands(ctx, cmds...)
	return err
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
