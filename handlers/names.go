package handlers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// sessionNamed turns the sessionId or sessionName a list call was given
// into a session id ("" when neither was given). An unknown name is an
// error naming the sessions that exist.
func (h *Handlers) sessionNamed(ctx context.Context, id, name *string) (tmuxctl.SessionID, error) {
	switch {
	case id != nil && name != nil:
		return "", errors.New("give sessionId or sessionName, not both")
	case id != nil:
		return tmuxctl.SessionID(*id), nil
	case name == nil:
		return "", nil
	}
	s, err := h.tmux.SessionNamed(ctx, *name)
	var nf *tmuxctl.NotFoundError
	if errors.As(err, &nf) {
		return "", fmt.Errorf("sessionName %s matches no session (existing: %s); names match exactly, or pass sessionId",
			strconv.Quote(*name), h.sessionNames(ctx))
	}
	if err != nil {
		return "", h.explain(ctx, err)
	}
	return s.ID, nil
}

// windowNamed turns the windowId or windowName a list call was given into
// a window id ("" when neither was given), looking for the name in session
// when one was given and on the whole server otherwise. A name no window
// or several windows have is an error listing the candidates.
func (h *Handlers) windowNamed(ctx context.Context, session tmuxctl.SessionID, id, name *string) (tmuxctl.WindowID, error) {
	switch {
	case id != nil && name != nil:
		return "", errors.New("give windowId or windowName, not both")
	case id != nil:
		return tmuxctl.WindowID(*id), nil
	case name == nil:
		return "", nil
	}
	windows, err := h.tmux.ListWindows(ctx, session)
	if err != nil {
		return "", h.explain(ctx, err)
	}
	var matches []tmuxctl.Window
	for _, w := range windows {
		if w.Name == *name {
			matches = append(matches, w)
		}
	}
	where := "on the server"
	if session != "" {
		where = "in session " + string(session)
	}
	switch len(matches) {
	case 1:
		return matches[0].ID, nil
	case 0:
		return "", fmt.Errorf("windowName %s matches no window %s (existing: %s); names match exactly, or pass windowId",
			strconv.Quote(*name), where, windowList(windows))
	}
	return "", fmt.Errorf("windowName %s is ambiguous: %d windows %s have it (%s); pass windowId, or sessionId/sessionName to narrow it",
		strconv.Quote(*name), len(matches), where, windowList(matches))
}

// sessionNames lists up to a dozen sessions as `"name" ($N)` for an error.
func (h *Handlers) sessionNames(ctx context.Context) string {
	sessions, _ := h.tmux.ListSessions(ctx)
	items := make([]string, len(sessions))
	for i, s := range sessions {
		items[i] = strconv.Quote(s.Name) + " (" + string(s.ID) + ")"
	}
	return listSome(items)
}

// windowList lists up to a dozen windows as `"name" (@N in session "s")`.
func windowList(windows []tmuxctl.Window) string {
	items := make([]string, len(windows))
	for i, w := range windows {
		items[i] = fmt.Sprintf("%s (%s in session %s)", strconv.Quote(w.Name), w.ID, strconv.Quote(w.SessionName))
	}
	return listSome(items)
}

func listSome(items []string) string {
	const most = 12
	switch {
	case len(items) == 0:
		return "none"
	case len(items) > most:
		return strings.Join(items[:most], ", ") + fmt.Sprintf(" and %d more", len(items)-most)
	}
	return strings.Join(items, ", ")
}
