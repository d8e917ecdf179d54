package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// FindPaneByPosition finds the panes across one side of a pane, the pane
// diagonally past one of its corners, or the pane covering a cell of a
// window. Positions come from the window's layout, which tmux keeps
// unzoomed, so the answer is the same whether or not a pane is zoomed.
func (h *Handlers) FindPaneByPosition(ctx context.Context, in gen.FindPaneByPositionInput) (gen.FindPaneByPositionOutput, error) {
	byPane := in.PaneID != nil || in.Side != nil
	byCell := in.WindowID != nil || in.X != nil || in.Y != nil
	switch {
	case byPane && byCell:
		return gen.FindPaneByPositionOutput{}, errors.New("give either paneId and side, or windowId, x and y — not both")
	case byPane && (in.PaneID == nil || in.Side == nil):
		return gen.FindPaneByPositionOutput{}, errors.New("paneId and side go together: side says where to look from paneId")
	case byCell && (in.WindowID == nil || in.X == nil || in.Y == nil):
		return gen.FindPaneByPositionOutput{}, errors.New("windowId, x and y go together: x and y are a cell of windowId")
	case !byPane && !byCell:
		return gen.FindPaneByPositionOutput{}, errors.New("give paneId and side (the panes next to a pane), or windowId, x and y (the pane at a cell)")
	}
	var window tmuxctl.WindowID
	if byPane {
		p, err := h.tmux.Pane(ctx, tmuxctl.PaneID(*in.PaneID))
		if err != nil {
			return gen.FindPaneByPositionOutput{}, h.explain(ctx, err)
		}
		window = p.WindowID
	} else {
		window = tmuxctl.WindowID(*in.WindowID)
	}
	w, err := h.tmux.Window(ctx, window)
	if err != nil {
		return gen.FindPaneByPositionOutput{}, h.explain(ctx, err)
	}
	panes, err := h.tmux.WindowPanes(ctx, window)
	if err != nil {
		return gen.FindPaneByPositionOutput{}, h.explain(ctx, err)
	}
	places, err := tmuxctl.ParseLayout(w.Layout)
	if err != nil {
		return gen.FindPaneByPositionOutput{}, err
	}
	var match func(r tmuxctl.Cell) bool
	if byPane {
		from, ok := places[tmuxctl.PaneID(*in.PaneID)]
		if !ok {
			return gen.FindPaneByPositionOutput{}, fmt.Errorf("pane %s is not in the layout of its window %s (%s)", *in.PaneID, window, w.Layout)
		}
		match = beside(from, *in.Side)
	} else {
		if *in.X >= w.Width || *in.Y >= w.Height {
			return gen.FindPaneByPositionOutput{}, fmt.Errorf("cell x=%d y=%d is outside window %s, which is %dx%d (x from 0 to %d, y from 0 to %d)",
				*in.X, *in.Y, window, w.Width, w.Height, w.Width-1, w.Height-1)
		}
		match = func(r tmuxctl.Cell) bool { return r.Contains(*in.X, *in.Y) }
	}
	out := gen.FindPaneByPositionOutput{WindowID: string(window), Zoomed: w.Zoomed, Panes: []gen.FoundPane{}}
	for _, p := range panes {
		r, ok := places[p.ID]
		if !ok || string(p.ID) == deref(in.PaneID) || !match(r) {
			continue
		}
		out.Panes = append(out.Panes, gen.FoundPane{PaneID: string(p.ID), Left: r.Left, Top: r.Top, Width: r.Width, Height: r.Height, Active: p.Active})
	}
	slices.SortFunc(out.Panes, func(a, b gen.FoundPane) int {
		return cmp.Or(cmp.Compare(a.Top, b.Top), cmp.Compare(a.Left, b.Left))
	})
	return out, nil
}

// beside returns a test for the panes on one side of from: across the
// one-cell border on that side and overlapping it along the border, or,
// for a corner, covering the cell diagonally past the corner and its two
// borders.
func beside(from tmuxctl.Cell, side gen.FindPaneByPositionInputSide) func(tmuxctl.Cell) bool {
	right, bottom := from.Left+from.Width, from.Top+from.Height // first cells past the pane
	rows := func(r tmuxctl.Cell) bool { return r.Top < bottom && from.Top < r.Top+r.Height }
	cols := func(r tmuxctl.Cell) bool { return r.Left < right && from.Left < r.Left+r.Width }
	switch side {
	case gen.FindPaneByPositionInputSideLeft:
		return func(r tmuxctl.Cell) bool { return r.Left+r.Width == from.Left-1 && rows(r) }
	case gen.FindPaneByPositionInputSideRight:
		return func(r tmuxctl.Cell) bool { return r.Left == right+1 && rows(r) }
	case gen.FindPaneByPositionInputSideAbove:
		return func(r tmuxctl.Cell) bool { return r.Top+r.Height == from.Top-1 && cols(r) }
	case gen.FindPaneByPositionInputSideBelow:
		return func(r tmuxctl.Cell) bool { return r.Top == bottom+1 && cols(r) }
	case gen.FindPaneByPositionInputSideTopLeft:
		return func(r tmuxctl.Cell) bool { return r.Contains(from.Left-2, from.Top-2) }
	case gen.FindPaneByPositionInputSideTopRight:
		return func(r tmuxctl.Cell) bool { return r.Contains(right+1, from.Top-2) }
	case gen.FindPaneByPositionInputSideBottomLeft:
		return func(r tmuxctl.Cell) bool { return r.Contains(from.Left-2, bottom+1) }
	}
	return func(r tmuxctl.Cell) bool { return r.Contains(right+1, bottom+1) }
}
