package handlers

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// The wording of every error lives in package wording; these forward to
// it with this server's tmux client.

// explain words a tmuxctl error for the agent.
func (h *Handlers) explain(ctx context.Context, err error) error {
	return wording.Explain(ctx, h.tmux, err)
}

// explainField is explain, with the input field that named a missing
// object put first.
func (h *Handlers) explainField(ctx context.Context, field string, err error) error {
	return wording.ExplainField(ctx, h.tmux, field, err)
}

// refuseOwn refuses to verb pane p when it is where this server runs,
// unless forced.
func (h *Handlers) refuseOwn(p tmuxctl.PaneID, force bool, verb string) error {
	if own, ok := h.tmux.Self(); ok && own == p && !force {
		return wording.OwnPane(p, verb)
	}
	return nil
}

// refuseOwnWindow refuses to act on window w when it holds the pane where
// this server runs, unless forced.
func (h *Handlers) refuseOwnWindow(ctx context.Context, w tmuxctl.WindowID, force bool, act string) error {
	if own := h.self(ctx); own.ok && own.pane.WindowID == w && !force {
		return wording.OwnHolder("window "+string(w), own.pane.ID, act)
	}
	return nil
}
