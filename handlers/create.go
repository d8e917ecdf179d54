package handlers

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// CreateSession starts a detached session (and the tmux server, if none
// runs) and returns the ids of what it made.
func (h *Handlers) CreateSession(ctx context.Context, in gen.CreateSessionInput) (gen.CreateSessionOutput, error) {
	c, err := h.tmux.NewSession(ctx, tmuxctl.NewSessionOptions{
		Name:       deref(in.Name),
		WindowName: deref(in.WindowName),
		Width:      deref(in.Width),
		Height:     deref(in.Height),
		Spawn:      tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env},
	})
	if err != nil {
		return gen.CreateSessionOutput{}, h.explain(ctx, err)
	}
	return gen.CreateSessionOutput{
		SessionID:   string(c.Session),
		SessionName: c.SessionName,
		WindowID:    string(c.Window),
		PaneID:      string(c.Pane),
		Pid:         c.PID,
	}, nil
}

// CreateWindow adds a window to a session.
func (h *Handlers) CreateWindow(ctx context.Context, in gen.CreateWindowInput) (gen.CreateWindowOutput, error) {
	c, err := h.tmux.NewWindow(ctx, tmuxctl.SessionID(in.SessionID), tmuxctl.NewWindowOptions{
		Name:   deref(in.Name),
		Select: in.Select,
		Spawn:  tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env},
	})
	if err != nil {
		return gen.CreateWindowOutput{}, h.explain(ctx, err)
	}
	return gen.CreateWindowOutput{
		SessionID:   string(c.Session),
		WindowID:    string(c.Window),
		WindowIndex: c.WindowIndex,
		PaneID:      string(c.Pane),
		Pid:         c.PID,
	}, nil
}

// SplitWindow splits a pane and returns the new pane's ids.
func (h *Handlers) SplitWindow(ctx context.Context, in gen.SplitWindowInput) (gen.SplitWindowOutput, error) {
	c, err := h.tmux.Split(ctx, tmuxctl.PaneID(in.PaneID), tmuxctl.SplitOptions{
		Direction: splitDirection(in.Direction),
		Percent:   deref(in.Percent),
		Select:    in.Select,
		Spawn:     tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env},
	})
	if err != nil {
		return gen.SplitWindowOutput{}, h.explain(ctx, err)
	}
	return gen.SplitWindowOutput{
		SessionID: string(c.Session),
		WindowID:  string(c.Window),
		PaneID:    string(c.Pane),
		Pid:       c.PID,
	}, nil
}
