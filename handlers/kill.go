package handlers

import (
	"context"
	"fmt"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// KillSession kills a session, unless this server runs inside it and force
// is not set.
func (h *Handlers) KillSession(ctx context.Context, in gen.KillSessionInput) (gen.KillSessionOutput, error) {
	id := tmuxctl.SessionID(in.SessionID)
	s, err := h.tmux.Session(ctx, id)
	if err != nil {
		return gen.KillSessionOutput{}, h.explain(ctx, err)
	}
	if own := h.self(ctx); own.ok && own.pane.SessionID == id && !in.Force {
		return gen.KillSessionOutput{}, fmt.Errorf("session %s holds pane %s, where this MCP server runs; killing it would stop the server — pass force:true if that is what you want", id, own.pane.ID)
	}
	panes, err := h.tmux.ListPanes(ctx, tmuxctl.PaneScope{Session: id})
	if err != nil {
		return gen.KillSessionOutput{}, h.explain(ctx, err)
	}
	if err := h.tmux.KillSession(ctx, id); err != nil {
		return gen.KillSessionOutput{}, h.explain(ctx, err)
	}
	return gen.KillSessionOutput{SessionID: string(id), SessionName: s.Name, PaneIds: paneIDs(panes)}, nil
}

// KillWindow kills a window, unless this server runs inside it and force is
// not set.
func (h *Handlers) KillWindow(ctx context.Context, in gen.KillWindowInput) (gen.KillWindowOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	if own := h.self(ctx); own.ok && own.pane.WindowID == id && !in.Force {
		return gen.KillWindowOutput{}, fmt.Errorf("window %s holds pane %s, where this MCP server runs; killing it would stop the server — pass force:true if that is what you want", id, own.pane.ID)
	}
	panes, err := h.tmux.ListPanes(ctx, tmuxctl.PaneScope{Window: id})
	if err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	s, err := h.tmux.Session(ctx, w.SessionID)
	if err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	if err := h.tmux.KillWindow(ctx, id); err != nil {
		return gen.KillWindowOutput{}, h.explain(ctx, err)
	}
	return gen.KillWindowOutput{
		WindowID:      string(id),
		SessionID:     string(w.SessionID),
		PaneIds:       paneIDs(panes),
		SessionClosed: s.Windows == 1,
	}, nil
}

// KillPane kills a pane, unless it is this server's own and force is not set.
func (h *Handlers) KillPane(ctx context.Context, in gen.KillPaneInput) (gen.KillPaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.KillPaneOutput{}, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, in.Force, "kill"); err != nil {
		return gen.KillPaneOutput{}, err
	}
	w, err := h.tmux.Window(ctx, p.WindowID)
	if err != nil {
		return gen.KillPaneOutput{}, h.explain(ctx, err)
	}
	if err := h.tmux.KillPane(ctx, id); err != nil {
		return gen.KillPaneOutput{}, h.explain(ctx, err)
	}
	return gen.KillPaneOutput{PaneID: string(id), WindowID: string(p.WindowID), WindowClosed: w.Panes == 1}, nil
}

// refuseOwn refuses to act on the pane this server runs in unless force.
func (h *Handlers) refuseOwn(p tmuxctl.PaneID, force bool, verb string) error {
	if own, ok := h.tmux.Self(); ok && own == p && !force {
		return fmt.Errorf("pane %s is where this MCP server itself runs; refusing to %s it — pass force:true if that is what you want", p, verb)
	}
	return nil
}

func paneIDs(panes []tmuxctl.Pane) []string {
	ids := make([]string, len(panes))
	for i, p := range panes {
		ids[i] = string(p.ID)
	}
	return ids
}
