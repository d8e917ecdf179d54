package handlers

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// explain words a tmuxctl error for the agent: what went wrong and what to
// do next. Every tool reports the same failure the same way because only
// this function writes that text.
func (h *Handlers) explain(ctx context.Context, err error) error {
	var nf *tmuxctl.NotFoundError
	var ce *tmuxctl.CommandError
	switch {
	case errors.As(err, &nf):
		return fmt.Errorf("%s %s does not exist (existing: %s); call list_%ss to see them all",
			nf.Kind, nf.ID, h.existing(ctx, nf.Kind), listNoun(nf.Kind))
	case errors.Is(err, tmuxctl.ErrServerGone):
		return h.noServer(h.tmux)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return fmt.Errorf("the call was cancelled or ran out of time before tmux answered: %w", err)
	case errors.As(err, &ce):
		return fmt.Errorf("tmux refused %q: %s", strings.Join(ce.Argv, " "), ce.Message)
	}
	return err
}

func listNoun(kind string) string {
	if kind == "pane" || kind == "window" || kind == "session" {
		return kind
	}
	return "pane"
}

// existing names up to a dozen ids of kind for an error message.
func (h *Handlers) existing(ctx context.Context, kind string) string {
	const most = 12
	var ids []string
	switch kind {
	case "session":
		ss, _ := h.tmux.ListSessions(ctx)
		for _, s := range ss {
			ids = append(ids, string(s.ID))
		}
	case "window":
		ws, _ := h.tmux.ListWindows(ctx, "")
		for _, w := range ws {
			ids = append(ids, string(w.ID))
		}
	default:
		ps, _ := h.tmux.ListPanes(ctx, tmuxctl.PaneScope{})
		for _, p := range ps {
			ids = append(ids, string(p.ID))
		}
	}
	switch {
	case len(ids) == 0:
		return "none"
	case len(ids) > most:
		return strings.Join(ids[:most], ", ") + fmt.Sprintf(" and %d more", len(ids)-most)
	}
	return strings.Join(ids, ", ")
}
