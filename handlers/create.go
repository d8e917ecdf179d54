package handlers

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// CreateSession starts a detached session (and the tmux server, if none
// runs) and returns the ids of what it made, with a cursor before the
// pane's first byte.
func (h *Handlers) CreateSession(ctx context.Context, in gen.CreateSessionInput) (gen.CreateSessionOutput, error) {
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	l, err := h.launch(ctx, spawn, "session", func(ctx context.Context, s tmuxctl.Spawn) (tmuxctl.Created, error) {
		return h.tmux.NewSession(ctx, tmuxctl.NewSessionOptions{
			Name:       deref(in.Name),
			WindowName: deref(in.WindowName),
			Width:      deref(in.Width),
			Height:     deref(in.Height),
			Spawn:      s,
		})
	})
	if err != nil {
		return gen.CreateSessionOutput{}, err
	}
	c := l.created
	return gen.CreateSessionOutput{
		SessionID:   string(c.Session),
		SessionName: c.SessionName,
		WindowID:    string(c.Window),
		PaneID:      string(c.Pane),
		Pid:         c.PID,
		Cursor:      l.cursor,
	}, nil
}

// CreateWindow adds a window to a session, sized as asked.
func (h *Handlers) CreateWindow(ctx context.Context, in gen.CreateWindowInput) (gen.CreateWindowOutput, error) {
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	l, err := h.launch(ctx, spawn, "window", func(ctx context.Context, s tmuxctl.Spawn) (tmuxctl.Created, error) {
		return h.tmux.NewWindow(ctx, tmuxctl.SessionID(in.SessionID), tmuxctl.NewWindowOptions{
			Name:   deref(in.Name),
			Select: in.Select,
			Width:  deref(in.Width),
			Height: deref(in.Height),
			Spawn:  s,
		})
	})
	if err != nil {
		return gen.CreateWindowOutput{}, err
	}
	c := l.created
	return gen.CreateWindowOutput{
		SessionID:   string(c.Session),
		WindowID:    string(c.Window),
		WindowIndex: c.WindowIndex,
		PaneID:      string(c.Pane),
		Pid:         c.PID,
		Cursor:      l.cursor,
	}, nil
}

// SplitWindow splits a pane and returns the new pane's ids. A width or
// height sizes the new pane along the split; the window keeps its size.
func (h *Handlers) SplitWindow(ctx context.Context, in gen.SplitWindowInput) (gen.SplitWindowOutput, error) {
	dir := splitDirection(in.Direction)
	cells, err := splitCells(dir, in.Percent, in.Width, in.Height)
	if err != nil {
		return gen.SplitWindowOutput{}, err
	}
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	l, err := h.launch(ctx, spawn, "pane", func(ctx context.Context, s tmuxctl.Spawn) (tmuxctl.Created, error) {
		return h.tmux.Split(ctx, tmuxctl.PaneID(in.PaneID), tmuxctl.SplitOptions{
			Direction: dir,
			Percent:   deref(in.Percent),
			Cells:     cells,
			Select:    in.Select,
			Spawn:     s,
		})
	})
	if err != nil {
		return gen.SplitWindowOutput{}, err
	}
	c := l.created
	return gen.SplitWindowOutput{
		SessionID: string(c.Session),
		WindowID:  string(c.Window),
		PaneID:    string(c.Pane),
		Pid:       c.PID,
		Cursor:    l.cursor,
	}, nil
}

// splitCells checks a split's size arguments and returns its size in
// cells along the split (0: percent or half). A split can only size the
// new pane along its direction: across it, the pane spans the split one.
func splitCells(dir tmuxctl.Direction, percent, width, height *int) (int, error) {
	if percent != nil && (width != nil || height != nil) {
		return 0, errors.New("give percent, or width/height, not both")
	}
	across := dir == tmuxctl.Right || dir == tmuxctl.Left
	switch {
	case across && height != nil:
		return 0, fmt.Errorf("height cannot be set when splitting %s: the new pane has the split pane's height; use width (columns), or direction below/above", dir)
	case !across && width != nil:
		return 0, fmt.Errorf("width cannot be set when splitting %s: the new pane has the split pane's width; use height (rows), or direction right/left", dir)
	case across:
		return deref(width), nil
	}
	return deref(height), nil
}
