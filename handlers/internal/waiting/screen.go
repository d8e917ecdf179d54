package waiting

import (
	"context"
	"errors"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/screenwatch"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// PipeTaken reports whether err means the pane's pipe is someone else's
// (a person's logging pipe, another tmux-mcp's stream), which tmux-mcp
// never replaces: a wait on that pane watches its screen instead.
func PipeTaken(err error) (*tmuxctl.PipeTakenError, bool) {
	var taken *tmuxctl.PipeTakenError
	ok := errors.As(err, &taken)
	return taken, ok
}

// LookFirst takes the first look at the pane's screen as the call begins,
// before Open, when the wait may end up watching the screen: no cursor,
// and no stream of the pane yet (the first wait on it, or a pane whose
// pipe is someone else's). Open can take long — the hub's start-up sweep,
// the guarded pipe-pane, a busy tmux — and text printed meanwhile was
// already on the screen when a first look taken after it was: the first
// wait on a user-piped pane missed it (issue 32). The look is dropped if
// the stream opens. A look that fails is taken again by WatchScreen.
func (w *Watch) LookFirst(client *tmuxctl.Client, cursor *string) {
	if cursor != nil || w.hub.Streams(w.Pane) {
		return
	}
	sctx, cancel := w.Setup()
	defer cancel()
	if sw, err := screenwatch.Start(sctx, w.grab(client)); err == nil {
		w.early = sw
	}
}

// LookedFirst says whether LookFirst saw the pane: it was there when the
// call began, so a pane not found later went during the wait. piped says
// whether it had a pipe then (not this server's: it streamed none).
func (w *Watch) LookedFirst() (seen, piped bool) {
	if w.early == nil {
		return false, false
	}
	return true, w.early.Last().Piped
}

// WatchScreen starts watching the pane's screen, within the wait's setup
// time: the first look, which everything later is compared with — the one
// LookFirst took at the start of the call, if it did.
func (w *Watch) WatchScreen(client *tmuxctl.Client) (*screenwatch.Watcher, error) {
	if w.early != nil {
		return w.early, nil
	}
	sctx, cancel := w.Setup()
	defer cancel()
	return screenwatch.Start(sctx, w.grab(client))
}

func (w *Watch) grab(client *tmuxctl.Client) screenwatch.GrabFunc {
	return func(ctx context.Context, lookback int) (tmuxctl.ScreenGrab, error) {
		return client.GrabScreen(ctx, w.Pane, lookback)
	}
}

// Look waits for the screen watcher's next look (left at most) and says
// how the wait goes on: Happened with the look, or how it ended. A pane
// that is gone, or whose program ended, is Gone; the look that saw a
// program's end comes with it, to be matched first. A look tmux failed
// to answer is tried again at the next interval.
func (w *Watch) Look(sw *screenwatch.Watcher, left time.Duration) (screenwatch.Update, Ending) {
	for {
		u, err := sw.Next(w.Ctx, left)
		var nf *tmuxctl.NotFoundError
		switch {
		case err == nil && u.Dead:
			return u.WithoutDeathNotice(), Gone
		case err == nil:
			return u, Happened
		case errors.As(err, &nf):
			return u, Gone
		case errors.Is(err, tmuxctl.ErrServerGone):
			return u, w.End(err)
		case w.Ctx.Err() != nil:
			return u, w.End(w.Ctx.Err())
		}
	}
}
