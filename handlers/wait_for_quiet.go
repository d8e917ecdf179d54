package handlers

import (
	"context"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// WaitForQuiet waits until a pane has printed nothing for quietMs, on its
// live output stream: for full-screen programs and progress bars that never
// print a last line to wait for. It ends as quiet, timed_out, pane_died,
// stream_lost, no_stream or cancelled, with what was printed meanwhile,
// the screen at the end and a cursor to continue from.
func (h *Handlers) WaitForQuiet(ctx context.Context, in gen.WaitForQuietInput) (gen.WaitForQuietOutput, error) {
	pane := tmuxctl.PaneID(in.PaneID)
	w := &quietWait{wait: h.beginWait(ctx, orDefaultWait(in.TimeoutMs), "waiting for pane "+string(pane)+" to go quiet"),
		pane: pane, quiet: time.Duration(in.QuietMs) * time.Millisecond, maxLines: h.limits.lines(in.MaxLines)}
	defer w.done()
	if w.quiet > w.effective {
		note(ctx, "quietMs (%d) is longer than the timeout enforced (%d ms): the wait can only time out", in.QuietMs, w.effectiveMs())
	}
	sctx, cancel := w.setupContext()
	defer cancel()
	s, start, err := h.streamAt(sctx, pane, in.Cursor)
	if err != nil && w.end(err) == waitTimedOut {
		note(ctx, "timed out while starting to watch the pane: %v", err)
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeTimedOut), nil
	}
	if noStream(err) && in.Cursor == nil {
		note(ctx, "no_stream: %v", err)
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeNoStream), nil
	}
	if err != nil {
		return gen.WaitForQuietOutput{}, h.explain(ctx, err)
	}
	return w.run(ctx, s, start), nil
}

// A quietWait is one wait_for_quiet call in progress.
type quietWait struct {
	*wait
	pane     tmuxctl.PaneID
	quiet    time.Duration
	maxLines int

	window // the newest text read, at most waitWindow bytes
	pos    int64
}

func (w *quietWait) run(ctx context.Context, s *live.Stream, start int64) gen.WaitForQuietOutput {
	release := s.Hold()
	defer release()
	w.pos = start
	lastOutput := time.Now() // the quiet period runs from the call, or the last output
	lastCheck := time.Now()
	synced := false
	for {
		changed := s.Changed()
		chunk, err := s.Read(w.pos)
		if err != nil { // cannot happen: pos never passes the end
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeStreamLost, live.ConnectionLost)
		}
		if len(chunk.Text) > 0 || chunk.Missed > 0 {
			lastOutput = time.Now()
		}
		w.add(chunk.Text, chunk.Missed)
		w.trim()
		w.pos = chunk.End
		switch {
		case chunk.Failed != "":
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeStreamLost, chunk.Failed)
		case chunk.Dead && !synced:
			// Take in what tmux read before the death, then say so.
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			w.h.hub.Sync(sctx, s)
			cancel()
			synced = true
			continue
		case chunk.Dead:
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomePaneDied, "")
		}
		left := w.quiet - time.Since(lastOutput)
		if left <= 0 {
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeQuiet, "")
		}
		timer := time.NewTimer(min(left, deathCheckInterval))
		select {
		case <-changed:
		case <-timer.C:
			if time.Since(lastCheck) >= deathCheckInterval {
				w.h.hub.CheckPane(w.ctx, w.pane)
				lastCheck = time.Now()
			}
		case <-w.ctx.Done():
			timer.Stop()
			if w.end(w.ctx.Err()) == waitTimedOut {
				return w.result(ctx, s, gen.WaitForQuietOutputOutcomeTimedOut, "")
			}
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeCancelled, "")
		}
		timer.Stop()
	}
}

func (w *quietWait) result(ctx context.Context, s *live.Stream, outcome gen.WaitForQuietOutputOutcome, failure live.Failure) gen.WaitForQuietOutput {
	out := w.base(outcome)
	kept := clip.StreamNewest(w.acc, w.maxLines, w.h.limits.MaxBytes)
	out.Output = kept.Text
	out = intoWaitForQuiet(w.cut.Then(kept.Accounting), out)
	if failure != "" {
		f := string(seedFailure(failure))
		out.StreamFailure = &f
	} else {
		out.Cursor = nullableCursor(s.Cursor(w.pos))
	}
	w.addScreen(ctx, &out, len(kept.Text))
	return out
}

func (w *quietWait) base(outcome gen.WaitForQuietOutputOutcome) gen.WaitForQuietOutput {
	return gen.WaitForQuietOutput{
		PaneID:             string(w.pane),
		Outcome:            outcome,
		EffectiveQuietMs:   int(w.quiet / time.Millisecond),
		EffectiveTimeoutMs: w.effectiveMs(),
		Cursor:             nil,
		StreamFailure:      nil,
	}
}

// addScreen adds what the pane shows now, within the bytes the output
// left, and counts it as returned.
func (w *quietWait) addScreen(ctx context.Context, out *gen.WaitForQuietOutput, used int) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if lines, err := w.h.tmux.Capture(sctx, w.pane, tmuxctl.CaptureOptions{}); err == nil {
		screen := clip.Newest(clip.TrimBlankTail(lines), w.h.limits.MaxLines, w.h.limits.MaxBytes-used)
		out.Screen = screen.Text
		out.ScreenClamped = screen.ByteClamped || screen.DroppedLines > 0
	}
	out.ReturnedBytes += len(out.Screen)
}

// notWatched answers a wait that never watched the pane.
func (w *quietWait) notWatched(ctx context.Context, outcome gen.WaitForQuietOutputOutcome) gen.WaitForQuietOutput {
	out := w.base(outcome)
	w.addScreen(ctx, &out, 0)
	return out
}
