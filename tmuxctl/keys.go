package tmuxctl

import (
	"context"
	"unicode/utf8"
)

// A KeyItem is one part of a key sequence: Text, typed literally, or Key,
// a key name (see [ParseKey]).
type KeyItem struct {
	Text string
	Key  string
}

// SendSequence sends items to pane p in order, text literally (send-keys
// -l) and keys by name, from one tmux client when they fit in one tmux
// message (so nothing typed by anyone else can fall between them), and
// otherwise from as few clients as fit, one after another.
func (c *Client) SendSequence(ctx context.Context, p PaneID, items []KeyItem) error {
	var batch [][]string
	size := 0
	for _, it := range items {
		var cmds [][]string
		if it.Key != "" {
			// "--" keeps a key such as "-" from being read as a flag.
			cmds = append(cmds, []string{"send-keys", "-t", string(p), "--", it.Key})
		}
		for _, part := range splitText(it.Text, textPart) {
			cmds = append(cmds, []string{"send-keys", "-t", string(p), "-l", "--", part})
		}
		for _, cmd := range cmds {
			n := argvSize(cmd)
			if size+n > clientBudget && len(batch) > 0 {
				if _, err := c.commands(ctx, batch...); err != nil {
					return err
				}
				batch, size = nil, 0
			}
			batch, size = append(batch, cmd), size+n
		}
	}
	if len(batch) == 0 {
		return nil
	}
	_, err := c.commands(ctx, batch...)
	return err
}

// tmux takes at most 16 KiB of arguments in one client's message
// ("command too long" beyond): a client sends at most clientBudget bytes
// of them, and text goes in parts of at most textPart bytes.
const (
	clientBudget = 8192
	textPart     = 2048
)

// argvSize is about what cmd costs in a client's message.
func argvSize(cmd []string) int {
	n := 2 // the ";" joining it to the next
	for _, a := range cmd {
		n += len(a) + 1
	}
	return n
}

// splitText cuts s into parts of at most max bytes, never inside a UTF-8
// character.
func splitText(s string, max int) []string {
	var parts []string
	for len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 {
			cut = max
		}
		parts = append(parts, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		parts = append(parts, s)
	}
	return parts
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
