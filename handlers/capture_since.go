package handlers

import (
	"context"
	"errors"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/internal/waiting"

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
	s, start, err := waiting.StreamAt(ctx, h.hub, pane, in.Cursor)
	if waiting.NoStream(err) && in.Cursor == nil {
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

	w := h.beginWait(ctx, float64(deref(in.WaitMs)), "waiting for output in pane "+string(pane))
	defer w.Done()
	chunk, err := h.readWaiting(w, s, start)
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
	kept := clip.StreamNewest(chunk.Text, maxLines, h.limits.MaxBytes)
	return intoCaptureSince(kept.Missing(chunk.Missed), gen.CaptureSinceOutput{
		PaneID:             in.PaneID,
		Text:               kept.Text,
		Cursor:             nullableCursor(s.Cursor(chunk.End)),
		Seeded:             false,
		Streaming:          true,
		RangeClamped:       false,
		EffectiveTimeoutMs: w.EffectiveMs(),
	}), nil
}

// readWaiting reads from off; if no text has arrived, it waits up to w
// for some, for the pane to die or the stream to end. However the wait
// ends, the answer is what is there to read.
func (h *Handlers) readWaiting(w *waiting.Wait, s *live.Stream, off int64) (live.Chunk, error) {
	if w.Effective <= 0 {
		return s.Read(off)
	}
	watch := w.Watch(h.hub, s.Pane())
	for {
		changed := s.Changed()
		chunk, err := s.Read(off)
		if err != nil || len(chunk.Text) > 0 || chunk.Missed > 0 || chunk.Dead || chunk.Failed != "" {
			return chunk, err
		}
		if !watch.Next(changed, waiting.Forever) {
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
	kept := clip.Newest(clip.TrimBlankTail(lines), maxLines, h.limits.MaxBytes)
	return intoCaptureSince(kept.Accounting, gen.CaptureSinceOutput{
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
	kept := clip.Newest(clip.TrimBlankTail(lines), maxLines, h.limits.MaxBytes)
	return intoCaptureSince(kept.Accounting, gen.CaptureSinceOutput{
		PaneID:       string(pane),
		Text:         kept.Text,
		Cursor:       nil,
		Streaming:    false,
		RangeClamped: kept.DroppedLines > 0,
	}), nil
}
