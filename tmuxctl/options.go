package tmuxctl

import (
	"context"
	"strings"
)

// paneOption returns the value of option name set on pane p itself, and
// whether it is set there at all (as opposed to inherited).
func (c *Client) paneOption(ctx context.Context, p PaneID, name string) (value string, set bool, err error) {
	out, err := c.command(ctx, "show-options", "-p", "-q", "-t", string(p), name)
	if err != nil {
		return "", false, err
	}
	line := strings.TrimSpace(out)
	if line == "" {
		return "", false, nil
	}
	_, value, _ = strings.Cut(line, " ")
	return value, true, nil
}

// PaneValue expands one format variable for pane p. (display -p exits 0
// with empty output for a missing pane in tmux 3.3a; list-panes fails.)
func (l LiveOps) PaneValue(ctx context.Context, p PaneID, variable string) (string, error) {
	rows, err := l.c.list(ctx, format{"pane_id", variable}, "list-panes", "-t", string(p))
	if err != nil {
		return "", err
	}
	for _, r := range rows {
		if r["pane_id"] == string(p) {
			return r[variable], nil
		}
	}
	return "", &NotFoundError{Kind: "pane", ID: string(p)}
}
