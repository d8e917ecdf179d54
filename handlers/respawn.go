package handlers

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

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
