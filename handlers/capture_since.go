package handlers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// CaptureSince returns what a pane printed since a cursor. The first call
// (no cursor) starts watching: it marks the stream position, then returns
// the visible screen and a cursor at the mark. With waitMs, a call that
// finds nothing new waits for output.
func (h *Handlers) CaptureSince(ctx context.Context, in gen.CaptureSinceInput) (gen.CaptureSinceOutput, error) {
	pane := tmuxctl.PaneID(in.PaneID)
	maxLines := h.limits.lines(in.MaxLines)
	s, start, err := h.streamAt(ctx, pane, in.Cursor)
	if noStream(err) && in.Cursor == nil {
		note(ctx, "streaming is false: %v", err)
		return h.captureWithoutStream(ctx, pane, maxLines)
	}
	if err != nil {
		return gen.CaptureSinceOutput{}, h.explain(ctx, err)
	}
	if in.Cursor == nil {
		return h.seed(ctx, s, start, maxLines)
	}
	release := s.Hold()
	defer release()

	wait := time.Duration(0)
	if in.WaitMs != nil {
		wait = h.limits.clampMs(float64(*in.WaitMs))
	}
	chunk, err := h.readWaiting(ctx, s, start, wait)
	if err != nil {
		return gen.CaptureSinceOutput{}, h.explain(ctx, err)
	}
	if chunk.Failed != "" && len(chunk.Text) == 0 {
		return gen.CaptureSinceOutput{}, fmt.Errorf("the stream of pane %s ended (%s) and nothing unread is left; omit the cursor to start again", pane, chunk.Failed)
	}
	if chunk.Dead && len(chunk.Text) == 0 && chunk.Missed == 0 {
		if _, err := h.tmux.Pane(ctx, pane); err != nil {
			return gen.CaptureSinceOutput{}, fmt.Errorf("pane %s is gone and everything it printed has been read; list_panes shows the panes that exist", pane)
		}
	}
	kept := keepStreamTail(chunk.Text, maxLines, h.limits.MaxBytes)
	return kept.missing(chunk.Missed).intoCaptureSince(gen.CaptureSinceOutput{
		PaneID:             in.PaneID,
		Text:               kept.Text,
		Cursor:             nullableCursor(s.Cursor(chunk.End)),
		Seeded:             false,
		Streaming:          true,
		RangeClamped:       false,
		EffectiveTimeoutMs: int(wait / time.Millisecond),
	}), nil
}

// readWaiting reads from off; if no text has arrived and wait is positive,
// it waits for some, for the pane to die or the stream to end.
func (h *Handlers) readWaiting(ctx context.Context, s *live.Stream, off int64, wait time.Duration) (live.Chunk, error) {
	if wait <= 0 {
		return s.Read(off)
	}
	wctx, cancel := h.waitContext(ctx, wait)
	defer cancel()
	defer reportProgress(ctx, wait, "waiting for output in pane "+string(s.Pane()))()
	for {
		changed := s.Changed()
		chunk, err := s.Read(off)
		if err != nil || len(chunk.Text) > 0 || chunk.Missed > 0 || chunk.Dead || chunk.Failed != "" {
			return chunk, err
		}
		select {
		case <-changed:
		case <-wctx.Done():
			return s.Read(off)
		}
	}
}

// seed answers the first capture_since call: the visible screen now, and a
// cursor at the stream position marked before the screen was read.
func (h *Handlers) seed(ctx context.Context, s *live.Stream, mark int64, maxLines int) (gen.CaptureSinceOutput, error) {
	lines, err := h.tmux.Capture(ctx, s.Pane(), tmuxctl.CaptureOptions{})
	if err != nil {
		var nf *tmuxctl.NotFoundError
		if !errors.As(err, &nf) {
			return gen.CaptureSinceOutput{}, h.explain(ctx, err)
		}
		lines = nil // the pane closed already; its stream still counts
	}
	kept := keepTail(trimBlankTail(lines), maxLines, h.limits.MaxBytes)
	return kept.intoCaptureSince(gen.CaptureSinceOutput{
		PaneID:             string(s.Pane()),
		Text:               kept.Text,
		Cursor:             nullableCursor(s.Cursor(mark)),
		Seeded:             true,
		Streaming:          true,
		RangeClamped:       kept.DroppedLines > 0,
		EffectiveTimeoutMs: 0,
	}), nil
}

// captureWithoutStream is the fallback when no control connection can be
// had: a bounded capture of the screen, no cursor, no waiting.
func (h *Handlers) captureWithoutStream(ctx context.Context, pane tmuxctl.PaneID, maxLines int) (gen.CaptureSinceOutput, error) {
	lines, err := h.tmux.Capture(ctx, pane, tmuxctl.CaptureOptions{})
	if err != nil {
		return gen.CaptureSinceOutput{}, h.explain(ctx, err)
	}
	kept := keepTail(trimBlankTail(lines), maxLines, h.limits.MaxBytes)
	return kept.intoCaptureSince(gen.CaptureSinceOutput{
		PaneID:       string(pane),
		Text:         kept.Text,
		Cursor:       nil,
		Streaming:    false,
		RangeClamped: kept.DroppedLines > 0,
	}), nil
}
