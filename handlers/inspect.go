package handlers

import (
	"context"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// GetServerInfo describes the tmux server: version, socket, pid, how much
// it holds, and where this MCP server runs in it.
func (h *Handlers) GetServerInfo(ctx context.Context, _ gen.GetServerInfoInput) (gen.GetServerInfoOutput, error) {
	info, err := h.tmux.ServerInfo(ctx)
	if err != nil {
		return gen.GetServerInfoOutput{}, h.explain(ctx, err)
	}
	v, err := tmuxctl.ParseVersion("tmux " + info.Version)
	if err != nil {
		return gen.GetServerInfoOutput{}, fmt.Errorf("the tmux server reports version %q, which this server cannot read", info.Version)
	}
	out := gen.GetServerInfoOutput{
		TmuxVersion: info.Version,
		SocketPath:  info.SocketPath,
		Pid:         info.PID,
		Sessions:    info.Sessions,
		Windows:     info.Windows,
		Panes:       info.Panes,
		Features:    featuresOf(v),
	}
	if own := h.self(ctx); own.ok {
		id := string(own.pane.ID)
		out.OwnPaneID = &id
	}
	return out, nil
}

// GetSessionInfo describes one session and lists its windows.
func (h *Handlers) GetSessionInfo(ctx context.Context, in gen.GetSessionInfoInput) (gen.GetSessionInfoOutput, error) {
	id := tmuxctl.SessionID(in.SessionID)
	s, err := h.tmux.Session(ctx, id)
	if err != nil {
		return gen.GetSessionInfoOutput{}, h.explain(ctx, err)
	}
	windows, err := h.tmux.ListWindows(ctx, id)
	if err != nil {
		return gen.GetSessionInfoOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	out := gen.GetSessionInfoOutput{
		SessionID:   string(s.ID),
		SessionName: s.Name,
		CreatedUnix: int(s.CreatedUnix),
		Width:       s.Width,
		Height:      s.Height,
		Own:         own.ok && own.pane.SessionID == s.ID,
		Windows:     make([]gen.SessionWindow, len(windows)),
	}
	for i, w := range windows {
		if w.Active {
			out.ActiveWindowID = string(w.ID)
		}
		out.Windows[i] = gen.SessionWindow{
			WindowID:   string(w.ID),
			Index:      w.Index,
			WindowName: w.Name,
			Active:     w.Active,
			Panes:      w.Panes,
			Width:      w.Width,
			Height:     w.Height,
			Zoomed:     w.Zoomed,
		}
	}
	return out, nil
}

// GetWindowInfo describes one window: size, layout, zoom and where each
// of its panes sits.
func (h *Handlers) GetWindowInfo(ctx context.Context, in gen.GetWindowInfoInput) (gen.GetWindowInfoOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.GetWindowInfoOutput{}, h.explain(ctx, err)
	}
	panes, err := h.tmux.WindowPanes(ctx, id)
	if err != nil {
		return gen.GetWindowInfoOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	out := gen.GetWindowInfoOutput{
		WindowID:    string(w.ID),
		WindowName:  w.Name,
		Index:       w.Index,
		SessionID:   string(w.SessionID),
		SessionName: w.SessionName,
		Active:      w.Active,
		Width:       w.Width,
		Height:      w.Height,
		Layout:      w.Layout,
		Zoomed:      w.Zoomed,
		Own:         own.ok && own.pane.WindowID == w.ID,
		Panes:       make([]gen.WindowPane, len(panes)),
	}
	for i, p := range panes {
		if p.Active {
			out.ActivePaneID = string(p.ID)
		}
		out.Panes[i] = gen.WindowPane{
			PaneID:  string(p.ID),
			Index:   p.Index,
			Active:  p.Active,
			Left:    p.Left,
			Top:     p.Top,
			Width:   p.Width,
			Height:  p.Height,
			Command: p.Command,
			Dead:    p.Dead,
		}
	}
	return out, nil
}

// GetPaneInfo describes one pane without its contents.
func (h *Handlers) GetPaneInfo(ctx context.Context, in gen.GetPaneInfoInput) (gen.GetPaneInfoOutput, error) {
	p, err := h.tmux.PaneDetail(ctx, tmuxctl.PaneID(in.PaneID))
	if err != nil {
		return gen.GetPaneInfoOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	return gen.GetPaneInfoOutput{
		PaneID:          string(p.ID),
		Index:           p.Index,
		Active:          p.Active,
		WindowID:        string(p.WindowID),
		WindowName:      p.WindowName,
		WindowIndex:     p.WindowIndex,
		SessionID:       string(p.SessionID),
		SessionName:     p.SessionName,
		Pid:             p.PID,
		Command:         p.Command,
		Cwd:             p.Cwd,
		Title:           p.Title,
		Width:           p.Width,
		Height:          p.Height,
		Left:            p.Left,
		Top:             p.Top,
		CursorX:         p.CursorX,
		CursorY:         p.CursorY,
		AlternateScreen: p.AlternateScreen,
		Mode:            nonEmpty(p.Mode),
		ScrollPosition:  p.ScrollPosition,
		HistoryLines:    p.HistorySize,
		HistoryLimit:    p.HistoryLimit,
		Dead:            p.Dead,
		ExitStatus:      p.ExitStatus,
		ExitSignal:      p.ExitSignal,
		Own:             own.ok && own.pane.ID == p.ID,
	}, nil
}

// SnapshotPane returns a pane's screen with its cursor, mode, size and
// scroll position, all read in one tmux command list.
func (h *Handlers) SnapshotPane(ctx context.Context, in gen.SnapshotPaneInput) (gen.SnapshotPaneOutput, error) {
	s, err := h.tmux.Snapshot(ctx, tmuxctl.PaneID(in.PaneID), in.Escapes)
	if err != nil {
		return gen.SnapshotPaneOutput{}, h.explain(ctx, err)
	}
	lines := clip.TrimBlankTail(s.Lines)
	kept := clip.Newest(lines, h.limits.lines(in.MaxLines), h.limits.MaxBytes)
	return intoSnapshotPane(kept.Accounting, gen.SnapshotPaneOutput{
		PaneID:          string(s.ID),
		Width:           s.Width,
		Height:          s.Height,
		CursorX:         s.CursorX,
		CursorY:         s.CursorY,
		AlternateScreen: s.AlternateScreen,
		Mode:            nonEmpty(s.Mode),
		ScrollPosition:  s.ScrollPosition,
		HistoryLines:    s.HistorySize,
		Dead:            s.Dead,
		Text:            kept.Text,
		TotalLines:      len(s.Lines),
	}), nil
}

// nonEmpty returns s for a nullable string field, nil for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
