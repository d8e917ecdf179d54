package handlers

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// SelectWindow makes a window its session's current window.
func (h *Handlers) SelectWindow(ctx context.Context, in gen.SelectWindowInput) (gen.SelectWindowOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	if err := h.tmux.SelectWindow(ctx, id); err != nil {
		return gen.SelectWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.SelectWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	return gen.SelectWindowOutput{WindowID: string(w.ID), SessionID: string(w.SessionID), Index: w.Index}, nil
}

// SelectPane makes a pane its window's active pane, keeping a zoom.
func (h *Handlers) SelectPane(ctx context.Context, in gen.SelectPaneInput) (gen.SelectPaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	if err := h.tmux.SelectPane(ctx, id); err != nil {
		return gen.SelectPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	p, w, err := h.paneAndWindow(ctx, "paneId", id)
	if err != nil {
		return gen.SelectPaneOutput{}, err
	}
	return gen.SelectPaneOutput{PaneID: string(p.ID), WindowID: string(p.WindowID), Zoomed: w.Zoomed}, nil
}

// SelectLayout lays out a window's panes by a preset or a layout string.
func (h *Handlers) SelectLayout(ctx context.Context, in gen.SelectLayoutInput) (gen.SelectLayoutOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.SelectLayoutOutput{}, h.explainField(ctx, "windowId", err)
	}
	if err := h.refuseOwnWindow(ctx, id, in.Force, "lay it out"); err != nil {
		return gen.SelectLayoutOutput{}, err
	}
	if err := h.tmux.ApplyLayout(ctx, id, w.Panes, w.Width, w.Height, in.Layout); err != nil {
		return gen.SelectLayoutOutput{}, valueError("layout", h.explain(ctx, err))
	}
	w, err = h.tmux.Window(ctx, id)
	if err != nil {
		return gen.SelectLayoutOutput{}, h.explainField(ctx, "windowId", err)
	}
	return gen.SelectLayoutOutput{WindowID: string(w.ID), Layout: w.Layout}, nil
}

// ResizePane resizes a pane to a size, moves one of its borders, or brings
// its window to a zoom state.
func (h *Handlers) ResizePane(ctx context.Context, in gen.ResizePaneInput) (gen.ResizePaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	sized := in.Width != nil || in.Height != nil
	ways := 0
	for _, set := range []bool{sized, in.Direction != nil, in.Zoomed != nil} {
		if set {
			ways++
		}
	}
	if ways != 1 {
		return gen.ResizePaneOutput{}, errors.New("give exactly one of: width and/or height (a size), direction (with amount), or zoomed (a state to reach)")
	}
	p, w, err := h.paneAndWindow(ctx, "paneId", id)
	if err != nil {
		return gen.ResizePaneOutput{}, err
	}
	if err := h.refuseOwnWindow(ctx, p.WindowID, in.Force, "resize its panes"); err != nil {
		return gen.ResizePaneOutput{}, err
	}
	switch {
	case in.Zoomed != nil:
		err = h.reachZoom(ctx, p, w, *in.Zoomed)
	case sized:
		err = h.tmux.ResizePane(ctx, id, tmuxctl.Resize{Width: deref(in.Width), Height: deref(in.Height)})
	default:
		err = h.tmux.ResizePane(ctx, id, tmuxctl.Resize{Border: resizeBorder(*in.Direction), Amount: in.Amount})
	}
	if err != nil {
		return gen.ResizePaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	p, w, err = h.paneAndWindow(ctx, "paneId", id)
	if err != nil {
		return gen.ResizePaneOutput{}, err
	}
	return gen.ResizePaneOutput{PaneID: string(p.ID), WindowID: string(p.WindowID), Width: p.Width, Height: p.Height, Zoomed: w.Zoomed}, nil
}

// reachZoom zooms pane p's window onto p, or unzooms it, only as far as
// needed: tmux's resize-pane -Z is a toggle.
func (h *Handlers) reachZoom(ctx context.Context, p tmuxctl.Pane, w tmuxctl.Window, want bool) error {
	switch {
	case !want && w.Zoomed:
		return h.tmux.ToggleZoom(ctx, p.ID, 1)
	case !want, w.Zoomed && p.Active:
		return nil
	case w.Panes < 2:
		return fmt.Errorf("window %s has only pane %s, which already fills it; tmux zooms only a window of two or more panes", w.ID, p.ID)
	case w.Zoomed: // zoomed onto another pane: unzoom, then zoom p
		return h.tmux.ToggleZoom(ctx, p.ID, 2)
	}
	return h.tmux.ToggleZoom(ctx, p.ID, 1)
}

// ResizeWindow sets a window's size.
func (h *Handlers) ResizeWindow(ctx context.Context, in gen.ResizeWindowInput) (gen.ResizeWindowOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	if in.Width == nil && in.Height == nil {
		return gen.ResizeWindowOutput{}, errors.New("give width, height or both")
	}
	if _, err := h.tmux.Window(ctx, id); err != nil {
		return gen.ResizeWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	if err := h.refuseOwnWindow(ctx, id, in.Force, "resize it"); err != nil {
		return gen.ResizeWindowOutput{}, err
	}
	if err := h.tmux.ResizeWindow(ctx, id, deref(in.Width), deref(in.Height)); err != nil {
		return gen.ResizeWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.ResizeWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	return gen.ResizeWindowOutput{WindowID: string(w.ID), Width: w.Width, Height: w.Height}, nil
}

// SwapPane trades the places of two panes.
func (h *Handlers) SwapPane(ctx context.Context, in gen.SwapPaneInput) (gen.SwapPaneOutput, error) {
	a, b := tmuxctl.PaneID(in.PaneID), tmuxctl.PaneID(in.TargetPaneID)
	if a == b {
		return gen.SwapPaneOutput{}, errors.New("paneId and targetPaneId are the same pane; swapping it with itself changes nothing")
	}
	if _, err := h.tmux.Pane(ctx, a); err != nil {
		return gen.SwapPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	if _, err := h.tmux.Pane(ctx, b); err != nil {
		return gen.SwapPaneOutput{}, h.explainField(ctx, "targetPaneId", err)
	}
	for _, p := range []tmuxctl.PaneID{a, b} {
		if err := h.refuseOwn(p, in.Force, "move"); err != nil {
			return gen.SwapPaneOutput{}, err
		}
	}
	if err := h.tmux.SwapPanes(ctx, a, b); err != nil {
		return gen.SwapPaneOutput{}, h.explain(ctx, err)
	}
	pa, err := h.tmux.Pane(ctx, a)
	if err != nil {
		return gen.SwapPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	pb, err := h.tmux.Pane(ctx, b)
	if err != nil {
		return gen.SwapPaneOutput{}, h.explainField(ctx, "targetPaneId", err)
	}
	return gen.SwapPaneOutput{PaneID: string(a), WindowID: string(pa.WindowID), TargetPaneID: string(b), TargetWindowID: string(pb.WindowID)}, nil
}

// MoveWindow moves a window to a session (or another index in its own).
func (h *Handlers) MoveWindow(ctx context.Context, in gen.MoveWindowInput) (gen.MoveWindowOutput, error) {
	id, to := tmuxctl.WindowID(in.WindowID), tmuxctl.SessionID(in.SessionID)
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.MoveWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	from, err := h.tmux.Session(ctx, w.SessionID)
	if err != nil {
		return gen.MoveWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	if _, err := h.tmux.Session(ctx, to); err != nil {
		return gen.MoveWindowOutput{}, h.explainField(ctx, "sessionId", err)
	}
	if err := h.refuseOwnWindow(ctx, id, in.Force, "move it"); err != nil {
		return gen.MoveWindowOutput{}, err
	}
	if err := h.tmux.MoveWindow(ctx, id, to, in.Index); err != nil {
		return gen.MoveWindowOutput{}, valueError("index", h.explain(ctx, err))
	}
	w, err = h.tmux.Window(ctx, id)
	if err != nil {
		return gen.MoveWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	return gen.MoveWindowOutput{
		WindowID:            string(w.ID),
		SessionID:           string(w.SessionID),
		Index:               w.Index,
		SourceSessionClosed: from.ID != to && from.Windows == 1,
	}, nil
}

// JoinPane moves a pane into another pane's window.
func (h *Handlers) JoinPane(ctx context.Context, in gen.JoinPaneInput) (gen.JoinPaneOutput, error) {
	id, target := tmuxctl.PaneID(in.PaneID), tmuxctl.PaneID(in.TargetPaneID)
	if id == target {
		return gen.JoinPaneOutput{}, errors.New("paneId and targetPaneId are the same pane; a pane cannot be joined to itself")
	}
	p, w, err := h.paneAndWindow(ctx, "paneId", id)
	if err != nil {
		return gen.JoinPaneOutput{}, err
	}
	if _, err := h.tmux.Pane(ctx, target); err != nil {
		return gen.JoinPaneOutput{}, h.explainField(ctx, "targetPaneId", err)
	}
	if err := h.refuseOwnWindow(ctx, w.ID, in.Force, "move a pane out of it (the others would be resized)"); err != nil {
		return gen.JoinPaneOutput{}, err
	}
	if err := h.refuseOwn(target, in.Force, "split (and so shrink)"); err != nil {
		return gen.JoinPaneOutput{}, err
	}
	if err := h.tmux.JoinPane(ctx, id, target, joinDirection(in.Direction), deref(in.Percent)); err != nil {
		return gen.JoinPaneOutput{}, h.explain(ctx, err)
	}
	moved, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.JoinPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	return gen.JoinPaneOutput{
		PaneID:             string(id),
		WindowID:           string(moved.WindowID),
		SourceWindowClosed: moved.WindowID != p.WindowID && w.Panes == 1,
	}, nil
}

// BreakPane moves a pane into a new window of its own session.
func (h *Handlers) BreakPane(ctx context.Context, in gen.BreakPaneInput) (gen.BreakPaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	name := deref(in.Name)
	if err := checkName("name", name, windowName); err != nil {
		return gen.BreakPaneOutput{}, err
	}
	p, w, err := h.paneAndWindow(ctx, "paneId", id)
	if err != nil {
		return gen.BreakPaneOutput{}, err
	}
	if w.Panes == 1 {
		return gen.BreakPaneOutput{}, fmt.Errorf("pane %s is already alone in window %s; to move that window use move_window, to rename it rename_window", id, w.ID)
	}
	if err := h.refuseOwnWindow(ctx, w.ID, in.Force, "move a pane out of it (the others would be resized)"); err != nil {
		return gen.BreakPaneOutput{}, err
	}
	c, err := h.tmux.BreakPane(ctx, id, p.SessionID, name, in.Select)
	if err != nil {
		return gen.BreakPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	return gen.BreakPaneOutput{PaneID: string(c.Pane), WindowID: string(c.Window), WindowIndex: c.WindowIndex, SessionID: string(c.Session)}, nil
}

// paneAndWindow returns pane id and its window; field names the input
// that gave the id, for the error when it does not exist.
func (h *Handlers) paneAndWindow(ctx context.Context, field string, id tmuxctl.PaneID) (tmuxctl.Pane, tmuxctl.Window, error) {
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return tmuxctl.Pane{}, tmuxctl.Window{}, h.explainField(ctx, field, err)
	}
	w, err := h.tmux.Window(ctx, p.WindowID)
	if err != nil {
		return tmuxctl.Pane{}, tmuxctl.Window{}, h.explainField(ctx, field, err)
	}
	return p, w, nil
}

// refuseOwnWindow refuses to act on the window holding the pane this
// server runs in unless force: what changes the window changes that pane.
func (h *Handlers) refuseOwnWindow(ctx context.Context, w tmuxctl.WindowID, force bool, verb string) error {
	if own := h.self(ctx); own.ok && own.pane.WindowID == w && !force {
		return fmt.Errorf("window %s holds pane %s, where this MCP server itself runs; refusing to %s — pass force:true if that is what you want", w, own.pane.ID, verb)
	}
	return nil
}

// explainField is explain, with the input field that named a missing
// object put first.
func (h *Handlers) explainField(ctx context.Context, field string, err error) error {
	var nf *tmuxctl.NotFoundError
	if errors.As(err, &nf) {
		return fmt.Errorf("%s: %w", field, h.explain(ctx, err))
	}
	return h.explain(ctx, err)
}

// valueError names the input field whose value tmux refused.
func valueError(field string, err error) error {
	return fmt.Errorf("%s: %w", field, err)
}
