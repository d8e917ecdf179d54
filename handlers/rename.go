package handlers

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

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
			return fmt.Errorf("%s: character %U at byte %d is a control character (tab, newline, escape, …); tmux would store it escaped or drop it, so it is refused — use printable text", field, r, i)
		case r == '\\':
			return fmt.Errorf("%s: a backslash (byte %d) is refused: tmux would store it doubled", field, i)
		case kind >= windowName && r == '$' && i+1 < len(v) && (isLetter(v[i+1]) || v[i+1] == '_' || v[i+1] == '{'):
			return fmt.Errorf("%s: '$' followed by %q (byte %d) is refused: tmux before 3.7 stores it as '\\$', like a shell variable it escapes", field, v[i+1], i)
		case kind == sessionName && (r == ':' || r == '.'):
			return fmt.Errorf("%s: %q (byte %d) is refused in a session name: tmux reads it as a target separator (and before 3.7 stores it as '_')", field, r, i)
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
		if strings.Contains(err.Error(), "duplicate session") {
			return gen.RenameSessionOutput{}, fmt.Errorf("name: another session is already named %q; session names are unique", in.Name)
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
