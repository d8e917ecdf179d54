package waiting

import (
	"context"
	"errors"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// StreamAt resolves the stream of hub and start offset for a call on pane
// that may carry a cursor. Without a cursor it watches the pane and starts at
// the stream's end. Every way a cursor can be wrong is an error that says
// what to do.
func StreamAt(ctx context.Context, hub *live.Hub, pane tmuxctl.PaneID, cursor *string) (*live.Stream, int64, error) {
	if cursor == nil {
		s, err := hub.Watch(ctx, pane)
		if err != nil {
			return nil, 0, err
		}
		return s, s.End(), nil
	}
	gen, off, err := live.ParseCursor(*cursor)
	if err != nil {
		if errors.Is(err, live.ErrCursorBeyond) {
			// Well formed, but its offset does not even fit in 64 bits: no
			// stream has come that far.
			return nil, 0, wording.CursorBeyondAny(*cursor, pane)
		}
		return nil, 0, wording.CursorMalformed(*cursor, err)
	}
	s, failure, ok := hub.LookupOn(ctx, gen, pane)
	if !ok {
		why := "the stream expired or the server restarted"
		if failure != "" {
			why = "its stream ended (" + string(failure) + ")"
		}
		return nil, 0, wording.CursorExpired(*cursor, why)
	}
	if s.Pane() != pane {
		return nil, 0, wording.CursorOtherPane(*cursor, s.Pane(), pane)
	}
	if end := s.End(); off > end {
		return nil, 0, wording.CursorAhead(*cursor, pane, off, end)
	}
	return s, off, nil
}

// NoStream reports whether err means the pane cannot be watched (someone
// else's pipe is on it, say), as opposed to a missing pane or a bad cursor.
func NoStream(err error) bool {
	var nf *tmuxctl.NotFoundError
	return err != nil && !errors.As(err, &nf) && !errors.Is(err, tmuxctl.ErrServerGone) &&
		!errors.Is(err, live.ErrHubClosed) &&
		!errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}
