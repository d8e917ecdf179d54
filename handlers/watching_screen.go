// This file holds the screen fallback of the Watching family: waits and
// capture_since on a pane whose pipe-pane is someone else's, which
// tmux-mcp never replaces, watch the pane's screen (handlers/internal/screenwatch).

package handlers

import (
	"context"
	"errors"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/match"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/screenwatch"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// notedLost says how many rows a screen wait saw scroll past unread.
func notedLost(ctx context.Context, cut clip.Accounting) {
	if cut.MissedBytes > 0 {
		note(ctx, wording.NoteScreenLost(cut.MissedBytes))
	}
}

// runOnScreen is wait_for_text on the screen: a match must take in text
// that was not on the screen when the wait began (a new row, or the
// changed end of a row), as a stream match must start after the wait's
// start. Results have no cursor: there is no stream to resume.
func (w *textWait) runOnScreen(ctx context.Context, taken *tmuxctl.PipeTakenError, patterns []string, regex bool) gen.WaitForTextOutput {
	note(ctx, wording.NoteScreenWatch(taken))
	if !regex {
		if m, err := match.New(screenwatch.Literals(patterns), true); err == nil {
			w.m = m
		}
	}
	sw, err := w.WatchScreen(w.h.tmux)
	if err != nil {
		end := w.End(err)
		if isNotFound(err) || end == waiting.Gone {
			return w.screenResult(ctx, gen.WaitForTextOutputOutcomePaneDied, "")
		}
		if end == waiting.Cancelled {
			return w.screenResult(ctx, gen.WaitForTextOutputOutcomeCancelled, "")
		}
		return w.screenResult(ctx, gen.WaitForTextOutputOutcomeTimedOut, "")
	}
	for {
		u, ending := w.Look(sw, waiting.Forever)
		if matched, end, ok := w.matchScreen(u); ok {
			w.Add(u.FreshText(end), int64(u.Lost))
			return w.screenResult(ctx, gen.WaitForTextOutputOutcomeMatched, matched)
		}
		w.Add(u.FreshText(len(u.Text)+1), int64(u.Lost))
		w.Trim()
		switch ending {
		case waiting.Happened:
			continue
		case waiting.Gone:
			return w.screenResult(ctx, gen.WaitForTextOutputOutcomePaneDied, "")
		case waiting.TimedOut:
			return w.screenResult(ctx, gen.WaitForTextOutputOutcomeTimedOut, "")
		}
		return w.screenResult(ctx, gen.WaitForTextOutputOutcomeCancelled, "")
	}
}

// matchScreen finds the first match in look u that takes in fresh text
// and is not our echo, and returns it and where it ends in u.Text.
func (w *textWait) matchScreen(u screenwatch.Update) (matched string, end int, ok bool) {
	if len(u.Spans) == 0 {
		return "", 0, false
	}
	echoed := echo.Spans(u.Text, w.h.echo.Active(string(w.Pane), w.pid))
	s, e, ok := screenwatch.Find(u, w.m, echoed)
	if !ok {
		return "", 0, false
	}
	matched = u.Text[s:e]
	if w.m.Empty() && len(matched) > maxAnyLineBytes {
		matched = clip.ValidPrefix(matched, maxAnyLineBytes)
	}
	return matched, e, true
}

// screenResult builds a screen wait's answer: output is the fresh rows
// seen, whole, in the order they appeared; no cursor and no stream failure.
func (w *textWait) screenResult(ctx context.Context, outcome gen.WaitForTextOutputOutcome, matched string) gen.WaitForTextOutput {
	out := gen.WaitForTextOutput{
		PaneID:             string(w.Pane),
		Outcome:            outcome,
		EffectiveTimeoutMs: w.EffectiveMs(),
		Matched:            nil,
		StreamFailure:      nil,
		Cursor:             nil,
		Screen:             "",
	}
	if outcome == gen.WaitForTextOutputOutcomeMatched {
		out.Matched = &matched
	}
	kept := clip.StreamNewest(w.Text, w.maxLines, w.h.limits.MaxBytes)
	out.Output = kept.Text
	out = intoWaitForText(w.Cut.Then(kept.Accounting), out)
	notedLost(ctx, w.Cut)
	if outcome != gen.WaitForTextOutputOutcomeMatched {
		w.addScreen(ctx, &out, len(kept.Text))
	}
	return out
}

// runOnScreen is wait_for_quiet on the screen: quiet once a look finds
// the screen as it was quietMs before.
func (w *quietWait) runOnScreen(ctx context.Context, taken *tmuxctl.PipeTakenError) gen.WaitForQuietOutput {
	note(ctx, wording.NoteScreenWatch(taken))
	sw, err := w.WatchScreen(w.h.tmux)
	if err != nil {
		switch end := w.End(err); {
		case isNotFound(err) || end == waiting.Gone:
			return w.screenResult(ctx, gen.WaitForQuietOutputOutcomePaneDied)
		case end == waiting.Cancelled:
			return w.screenResult(ctx, gen.WaitForQuietOutputOutcomeCancelled)
		}
		return w.screenResult(ctx, gen.WaitForQuietOutputOutcomeTimedOut)
	}
	lastChange := time.Now()
	for {
		left := w.quiet - time.Since(lastChange)
		if left <= 0 {
			return w.screenResult(ctx, gen.WaitForQuietOutputOutcomeQuiet)
		}
		u, ending := w.Look(sw, left)
		if len(u.Spans) > 0 || u.Lost > 0 {
			lastChange = time.Now()
		}
		w.Add(u.FreshText(len(u.Text)+1), int64(u.Lost))
		w.Trim()
		switch ending {
		case waiting.Happened:
			continue
		case waiting.Gone:
			return w.screenResult(ctx, gen.WaitForQuietOutputOutcomePaneDied)
		case waiting.TimedOut:
			return w.screenResult(ctx, gen.WaitForQuietOutputOutcomeTimedOut)
		}
		return w.screenResult(ctx, gen.WaitForQuietOutputOutcomeCancelled)
	}
}

func (w *quietWait) screenResult(ctx context.Context, outcome gen.WaitForQuietOutputOutcome) gen.WaitForQuietOutput {
	out := w.base(outcome)
	w.addAwaiting(ctx, &out)
	kept := clip.StreamNewest(w.Text, w.maxLines, w.h.limits.MaxBytes)
	out.Output = kept.Text
	out = intoWaitForQuiet(w.Cut.Then(kept.Accounting), out)
	notedLost(ctx, w.Cut)
	w.addScreen(ctx, &out, len(kept.Text))
	return out
}

// captureSinceOnScreen is capture_since without a cursor on a pane whose
// pipe is someone else's: the screen, with streaming false and no cursor.
// waitMs is not used, as on every call without a cursor (SEED-CONTRACT
// rule 14: effectiveTimeoutMs 0); the note names the tools that do wait
// on such a pane's screen.
func (h *Handlers) captureSinceOnScreen(ctx context.Context, pane tmuxctl.PaneID, taken *tmuxctl.PipeTakenError, maxLines int) (gen.CaptureSinceOutput, error) {
	note(ctx, wording.NoteScreenCapture(taken))
	return h.captureWithoutStream(ctx, pane, maxLines)
}

func isNotFound(err error) bool {
	var nf *tmuxctl.NotFoundError
	return errors.As(err, &nf)
}
