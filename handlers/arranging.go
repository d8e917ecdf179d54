// This file holds the tools of the catalogue family Arranging: selecting,
// laying out, resizing, moving, naming, and restarting or clearing panes in
// place (select_*, resize_*, swap_pane, move_window, join_pane, break_pane,
// rename_*, set_pane_title, respawn_pane, clear_pane).

package handlers

import (
	"context"
	"errors"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
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
		return gen.ResizePaneOutput{}, wording.ResizeOneOf()
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
		return wording.ZoomAlone(w.ID, p.ID)
	case w.Zoomed: // zoomed onto another pane: unzoom, then zoom p
		return h.tmux.ToggleZoom(ctx, p.ID, 2)
	}
	return h.tmux.ToggleZoom(ctx, p.ID, 1)
}

// ResizeWindow sets a window's size.
func (h *Handlers) ResizeWindow(ctx context.Context, in gen.ResizeWindowInput) (gen.ResizeWindowOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	if in.Width == nil && in.Height == nil {
		return gen.ResizeWindowOutput{}, wording.ResizeWindowNothing()
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
		return gen.SwapPaneOutput{}, wording.SamePane("swapping it with itself changes nothing")
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
		return gen.JoinPaneOutput{}, wording.SamePane("a pane cannot be joined to itself")
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
		return gen.BreakPaneOutput{}, wording.AlreadyAlone(id, w.ID)
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

// valueError names the input field whose value tmux refused.
func valueError(field string, err error) error {
	return wording.Field(field, err)
}

// Names and titles are stored exactly as given or refused: tmux expands
// '#' in them (escaped on the way in, see tmuxctl), and changes some
// characters as it stores them (utf8_stravis and session_check_name), so
// those are refused rather than silently changed.

// What a checked string names: tmux stores each a little differently.
type nameKind int

const (
	paneTitle   nameKind = iota // select-pane -T: controls escaped (3.7) or dropped (3.3a)
	windowName                  // as titles, and "$" before a letter, '_' or '{' escaped before 3.7
	sessionName                 // as window names, and ':' and '.' changed to '_' before 3.7
)

// checkName refuses a name or title that tmux would not store exactly.
func checkName(field, v string, kind nameKind) error {
	for i, r := range v {
		switch {
		case r < 0x20 || r == 0x7f:
			return wording.NameControl(field, r, i)
		case r == '\\':
			return wording.NameBackslash(field, i)
		case kind >= windowName && r == '$' && i+1 < len(v) && (isLetter(v[i+1]) || v[i+1] == '_' || v[i+1] == '{'):
			return wording.NameDollar(field, v[i+1], i)
		case kind == sessionName && (r == ':' || r == '.'):
			return wording.NameSeparator(field, r, i)
		}
	}
	return nil
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// RenameSession renames a session to exactly the given name.
func (h *Handlers) RenameSession(ctx context.Context, in gen.RenameSessionInput) (gen.RenameSessionOutput, error) {
	id := tmuxctl.SessionID(in.SessionID)
	if err := checkName("name", in.Name, sessionName); err != nil {
		return gen.RenameSessionOutput{}, err
	}
	if _, err := h.tmux.Session(ctx, id); err != nil {
		return gen.RenameSessionOutput{}, h.explainField(ctx, "sessionId", err)
	}
	if err := h.tmux.RenameSession(ctx, id, in.Name); err != nil {
		if errors.Is(err, tmuxctl.ErrNameTaken) {
			return gen.RenameSessionOutput{}, wording.NameTaken("name", "session", in.Name)
		}
		return gen.RenameSessionOutput{}, h.explainField(ctx, "sessionId", err)
	}
	s, err := h.tmux.Session(ctx, id)
	if err != nil {
		return gen.RenameSessionOutput{}, h.explainField(ctx, "sessionId", err)
	}
	return gen.RenameSessionOutput{SessionID: string(s.ID), Name: s.Name}, nil
}

// RenameWindow renames a window to exactly the given name.
func (h *Handlers) RenameWindow(ctx context.Context, in gen.RenameWindowInput) (gen.RenameWindowOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	if err := checkName("name", in.Name, windowName); err != nil {
		return gen.RenameWindowOutput{}, err
	}
	if err := h.tmux.RenameWindow(ctx, id, in.Name); err != nil {
		return gen.RenameWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.RenameWindowOutput{}, h.explainField(ctx, "windowId", err)
	}
	return gen.RenameWindowOutput{WindowID: string(w.ID), Name: w.Name}, nil
}

// SetPaneTitle sets a pane's title to exactly the given text.
func (h *Handlers) SetPaneTitle(ctx context.Context, in gen.SetPaneTitleInput) (gen.SetPaneTitleOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	if err := checkName("title", in.Title, paneTitle); err != nil {
		return gen.SetPaneTitleOutput{}, err
	}
	if err := h.tmux.SetPaneTitle(ctx, id, in.Title); err != nil {
		return gen.SetPaneTitleOutput{}, h.explainField(ctx, "paneId", err)
	}
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.SetPaneTitleOutput{}, h.explainField(ctx, "paneId", err)
	}
	return gen.SetPaneTitleOutput{PaneID: string(p.ID), Title: p.Title}, nil
}

// RespawnPane ends a pane's program and starts another (or the shell) in
// the same pane.
func (h *Handlers) RespawnPane(ctx context.Context, in gen.RespawnPaneInput) (gen.RespawnPaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	if _, err := h.tmux.Pane(ctx, id); err != nil {
		return gen.RespawnPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	if err := h.refuseOwn(id, in.Force, "respawn"); err != nil {
		return gen.RespawnPaneOutput{}, err
	}
	if err := h.tmux.RespawnPane(ctx, id, tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}); err != nil {
		return gen.RespawnPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.RespawnPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	return gen.RespawnPaneOutput{PaneID: string(p.ID), Pid: p.PID}, nil
}

// ClearPane clears a pane's screen and, when asked, its scrollback.
func (h *Handlers) ClearPane(ctx context.Context, in gen.ClearPaneInput) (gen.ClearPaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	if _, err := h.tmux.Pane(ctx, id); err != nil {
		return gen.ClearPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	if err := h.refuseOwn(id, in.Force, "clear"); err != nil {
		return gen.ClearPaneOutput{}, err
	}
	if err := h.tmux.ClearPane(ctx, id, in.History); err != nil {
		return gen.ClearPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.ClearPaneOutput{}, h.explainField(ctx, "paneId", err)
	}
	return gen.ClearPaneOutput{PaneID: string(p.ID), HistoryCleared: in.History, HistoryLines: p.HistorySize}, nil
}
