package tmuxctl

import (
	"context"
	"math"
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
	out, err := c.command(ctx, captureArgs(p, o)...)
	if err != nil {
		return nil, err
	}
	return captureLines(out, o), nil
}

// CaptureWithPane reads pane p and the rows of it o selects in one tmux
// command list, so that the pane's size and history describe the rows
// returned. tmux moves rows outside the pane's history and screen to the
// nearest edge; the pane tells the caller where those edges are.
func (c *Client) CaptureWithPane(ctx context.Context, p PaneID, o CaptureOptions) (Pane, []string, error) {
	spec, fieldSep, rowSep := paneFormat.layout()
	// A missing pane prints an empty row and fails capture-pane, which
	// fails the command list.
	out, err := c.commands(ctx, paneRead(p, spec), captureArgs(p, o))
	if err != nil {
		return Pane{}, nil, err
	}
	row, screen, ok := strings.Cut(out, rowSep)
	if !ok {
		return Pane{}, nil, &NotFoundError{Kind: "pane", ID: string(p)}
	}
	rows, err := c.parsePrinted(ctx, paneFormat, row+rowSep, fieldSep, rowSep)
	if err != nil {
		return Pane{}, nil, err
	}
	r, err := onePane(p, rows)
	if err != nil {
		return Pane{}, nil, err
	}
	return paneFrom(r), captureLines(screen, o), nil
}

func captureArgs(p PaneID, o CaptureOptions) []string {
	argv := []string{"capture-pane", "-p", "-t", string(p)}
	if o.History {
		argv = append(argv, "-S", "-")
	} else if o.Start != nil {
		argv = append(argv, "-S", captureRow(*o.Start))
	}
	if o.End != nil {
		argv = append(argv, "-E", captureRow(*o.End))
	}
	if o.JoinWrapped {
		argv = append(argv, "-J")
	}
	if o.Escapes {
		argv = append(argv, "-e")
	}
	return argv
}

// captureRow writes a row for -S or -E within the range tmux parses
// (INT_MIN+1 to SHRT_MAX, cmd-capture-pane.c): past it, tmux would read
// -S as the screen's top row rather than the nearest edge. No pane has
// that many rows, so the row means the same edge either way.
func captureRow(n int) string {
	return strconv.Itoa(min(max(n, math.MinInt32+1), math.MaxInt16))
}

func captureLines(out string, o CaptureOptions) []string {
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil
	}
	lines := strings.Split(out, "\n")
	if o.JoinWrapped {
		// tmux 3.2a keeps the blank cells after each joined line's text
		// (later versions drop them, as capture-pane does without -J).
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
	}
	return lines
}
