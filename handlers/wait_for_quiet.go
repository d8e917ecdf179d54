package handlers

import (
	"context"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/internal/waiting"
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
	w := &quietWait{Watch: h.beginWait(ctx, waiting.OrDefault(in.TimeoutMs), "waiting for pane "+string(pane)+" to go quiet").Watch(h.hub, pane),
		h: h, quiet: time.Duration(in.QuietMs) * time.Millisecond, maxLines: h.limits.lines(in.MaxLines)}
	defer w.Done()
	if w.quiet > w.Effective {
		note(ctx, "quietMs (%d) is longer than the timeout enforced (%d ms): the wait can only time out", in.QuietMs, w.EffectiveMs())
	}
	s, start, opening, err := w.Open(in.Cursor)
	switch opening {
	case waiting.SlowToWatch:
		note(ctx, "timed out while starting to watch the pane: %v", err)
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeTimedOut), nil
	case waiting.NotWatchable:
		note(ctx, "no_stream: %v", err)
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeNoStream), nil
	case waiting.OpenFailed:
		return gen.WaitForQuietOutput{}, h.explain(ctx, err)
	}
	return w.run(ctx, s, start), nil
}

// A quietWait is one wait_for_quiet call in progress.
type quietWait struct {
	*waiting.Watch
	h        *Handlers
	quiet    time.Duration
	maxLines int

	waiting.Window // the newest text read, at most waiting.WindowSize bytes
	pos            int64
}

func (w *quietWait) run(ctx context.Context, s *live.Stream, start int64) gen.WaitForQuietOutput {
	release := s.Hold()
	defer release()
	w.pos = start
	lastOutput := time.Now() // the quiet period runs from the call, or the last output
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
		w.Add(chunk.Text, chunk.Missed)
		w.Trim()
		w.pos = chunk.End
		switch {
		case chunk.Failed != "":
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeStreamLost, chunk.Failed)
		case chunk.Dead && !synced:
			// Take in what tmux read before the death, then say so.
			w.SyncDeath(ctx, s)
			synced = true
			continue
		case chunk.Dead:
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomePaneDied, "")
		}
		left := w.quiet - time.Since(lastOutput)
		if left <= 0 {
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeQuiet, "")
		}
		if !w.Next(changed, left) {
			if w.End(w.Ctx.Err()) == waiting.TimedOut {
				return w.result(ctx, s, gen.WaitForQuietOutputOutcomeTimedOut, "")
			}
			return w.result(ctx, s, gen.WaitForQuietOutputOutcomeCancelled, "")
		}
	}
}

func (w *quietWait) result(ctx context.Context, s *live.Stream, outcome gen.WaitForQuietOutputOutcome, failure live.Failure) gen.WaitForQuietOutput {
	out := w.base(outcome)
	kept := clip.StreamNewest(w.Text, w.maxLines, w.h.limits.MaxBytes)
	out.Output = kept.Text
	out = intoWaitForQuiet(w.Cut.Then(kept.Accounting), out)
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
		PaneID:             string(w.Pane),
		Outcome:            outcome,
		EffectiveQuietMs:   int(w.quiet / time.Millisecond),
		EffectiveTimeoutMs: w.EffectiveMs(),
		Cursor:             nil,
		StreamFailure:      nil,
	}
}

// addScreen adds what the pane shows now, within the bytes the output
// left, and counts it as returned.
func (w *quietWait) addScreen(ctx context.Context, out *gen.WaitForQuietOutput, used int) {
	screen := w.Screen(ctx, w.h.tmux, w.h.limits.MaxLines, w.h.limits.MaxBytes-used)
	out.Screen, out.ScreenClamped = screen.Text, screen.Clamped
	out.ReturnedBytes += len(out.Screen)
}

// notWatched answers a wait that never watched the pane.
func (w *quietWait) notWatched(ctx context.Context, outcome gen.WaitForQuietOutputOutcome) gen.WaitForQuietOutput {
	out := w.base(outcome)
	w.addScreen(ctx, &out, 0)
	return out
}
