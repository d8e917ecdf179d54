package handlers

import (
	"context"
	"fmt"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// ShowEnvironment reads the global environment or a session's, or one
// variable of it, with exact values.
func (h *Handlers) ShowEnvironment(ctx context.Context, in gen.ShowEnvironmentInput) (gen.ShowEnvironmentOutput, error) {
	session, err := h.envSession(ctx, in.SessionID)
	if err != nil {
		return gen.ShowEnvironmentOutput{}, err
	}
	var vars []tmuxctl.EnvVar
	if in.Name != nil {
		v, ok, err := h.tmux.EnvironmentVar(ctx, session, *in.Name)
		if err != nil {
			return gen.ShowEnvironmentOutput{}, h.explain(ctx, err)
		}
		if ok {
			vars = append(vars, v)
		}
	} else if vars, err = h.tmux.Environment(ctx, session); err != nil {
		return gen.ShowEnvironmentOutput{}, h.explain(ctx, err)
	}
	rows := make([]gen.EnvVarView, len(vars))
	for i, v := range vars {
		rows[i] = gen.EnvVarView{Name: v.Name, Removed: v.Removed}
		if !v.Removed {
			value := v.Value
			rows[i].Value = &value
		}
	}
	return gen.ShowEnvironmentOutput{SessionID: in.SessionID, Variables: rows}, nil
}

// SetEnvironment sets or unsets one variable and reads it back.
func (h *Handlers) SetEnvironment(ctx context.Context, in gen.SetEnvironmentInput) (gen.SetEnvironmentOutput, error) {
	session, err := h.envSession(ctx, in.SessionID)
	if err != nil {
		return gen.SetEnvironmentOutput{}, err
	}
	if in.Unset {
		err = h.tmux.UnsetEnvironment(ctx, session, in.Name)
	} else {
		if in.Value == nil {
			return gen.SetEnvironmentOutput{}, fmt.Errorf("value is required unless unset is true")
		}
		if err := fitsOneCommand("value", *in.Value); err != nil {
			return gen.SetEnvironmentOutput{}, err
		}
		err = h.tmux.SetEnvironment(ctx, session, in.Name, *in.Value)
	}
	if err != nil {
		return gen.SetEnvironmentOutput{}, h.explain(ctx, err)
	}
	out := gen.SetEnvironmentOutput{SessionID: in.SessionID, Name: in.Name, Unset: in.Unset}
	if v, ok, err := h.tmux.EnvironmentVar(ctx, session, in.Name); err == nil && ok && !v.Removed {
		out.Value = &v.Value
	}
	return out, nil
}

// envSession checks that a given session exists; nil is the global
// environment.
func (h *Handlers) envSession(ctx context.Context, id *string) (tmuxctl.SessionID, error) {
	if id == nil {
		return "", nil
	}
	if _, err := h.tmux.Session(ctx, tmuxctl.SessionID(*id)); err != nil {
		return "", h.explain(ctx, err)
	}
	return tmuxctl.SessionID(*id), nil
}
