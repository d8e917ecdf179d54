package handlers

import (
	"context"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"strconv"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

func exitSuffix(p tmuxctl.Pane) string {
	switch {
	case p.ExitSignal != nil:
		return ", killed by " + *p.ExitSignal
	case p.ExitStatus != nil:
		return " with status " + strconv.Itoa(*p.ExitStatus)
	}
	return ""
}

// CapturePane returns what a pane shows, or rows of its history, keeping the
// newest lines within the line and byte limits and reporting what it cut.
func (h *Handlers) CapturePane(ctx context.Context, in gen.CapturePaneInput) (gen.CapturePaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.CapturePaneOutput{}, h.explain(ctx, err)
	}
	// tmux silently moves rows outside history+screen to the nearest edge;
	// clamp here too so the result can say it did.
	first, last := -p.HistorySize, p.Height-1
	start, startClamped := clampRow(in.Start, first, last)
	end, endClamped := clampRow(in.End, first, last)
	if start != nil && end != nil && *start > *end {
		return gen.CapturePaneOutput{}, fmt.Errorf("start (%d) is after end (%d) once clamped to rows %d..%d of pane %s; 0 is the top of the screen, negative rows are history", *start, *end, first, last, id)
	}
	lines, err := h.tmux.Capture(ctx, id, tmuxctl.CaptureOptions{
		Start:       start,
		End:         end,
		JoinWrapped: in.JoinWrapped,
		Escapes:     in.Escapes,
	})
	if err != nil {
		return gen.CapturePaneOutput{}, h.explain(ctx, err)
	}
	lines = clip.TrimBlankTail(lines)
	kept := clip.Newest(lines, h.limits.lines(in.MaxLines), h.limits.MaxBytes)
	return intoCapturePane(kept.Accounting, gen.CapturePaneOutput{
		PaneID:       string(id),
		Text:         kept.Text,
		TotalLines:   len(lines),
		RangeClamped: startClamped || endClamped,
	}), nil
}

func clampRow(row *int, first, last int) (*int, bool) {
	if row == nil {
		return nil, false
	}
	v := min(max(*row, first), last)
	return &v, v != *row
}
