// This file holds the tools of the catalogue family Watching output as it
// streams (capture_since, wait_for_text, wait_for_quiet).

package handlers

import (
	"context"
	"errors"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/match"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
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
	if taken, ok := waiting.PipeTaken(err); ok && in.Cursor == nil {
		return h.captureSinceOnScreen(ctx, pane, taken, maxLines)
	}
	if waiting.NoStream(err) && in.Cursor == nil {
		note(ctx, wording.NoteNotStreaming(err))
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
		return gen.CaptureSinceOutput{}, wording.StreamEndedAllRead(pane, string(chunk.Failed))
	}
	if chunk.Dead && len(chunk.Text) == 0 && chunk.Missed == 0 {
		if _, err := h.tmux.Pane(ctx, pane); err != nil {
			return gen.CaptureSinceOutput{}, wording.PaneGoneAllRead(pane)
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

// maxAnyLineBytes bounds what a no-pattern match reports of its line.
const maxAnyLineBytes = 1024

// WaitForText waits until a pane prints one of the patterns (or anything,
// with none), the pane dies, the timeout passes or the call is cancelled,
// and says which, with what was printed, the screen after a miss, and a
// cursor to continue from. Text this server typed into the pane recently
// is not matched.
func (h *Handlers) WaitForText(ctx context.Context, in gen.WaitForTextInput) (gen.WaitForTextOutput, error) {
	pane := tmuxctl.PaneID(in.PaneID)
	m, err := match.New(in.Patterns, deref(in.Regex))
	if err != nil {
		return gen.WaitForTextOutput{}, err
	}
	w := &textWait{Watch: h.beginWait(ctx, waiting.OrDefault(in.TimeoutMs), "waiting for text in pane "+string(pane)).Watch(h.hub, pane),
		h: h, m: m, maxLines: h.limits.lines(in.MaxLines)}
	defer w.Done()
	w.LookFirst(h.tmux, in.Cursor) // a screen wait's baseline is the call's start
	s, start, opening, err := w.Open(in.Cursor)
	switch opening {
	case waiting.SlowToWatch:
		note(ctx, wording.NoteSlowToWatch(err))
		return w.notWatched(ctx, gen.WaitForTextOutputOutcomeTimedOut), nil
	case waiting.CancelledEarly:
		return w.notWatched(ctx, gen.WaitForTextOutputOutcomeCancelled), nil
	case waiting.NotWatchable:
		note(ctx, wording.NoteNoStream(err))
		return w.notWatched(ctx, gen.WaitForTextOutputOutcomeNoStream), nil
	case waiting.OpenFailed:
		if seen, piped := w.LookedFirst(); seen && isNotFound(err) { // it went after the first look
			if piped {
				note(ctx, wording.NoteScreenWatch(&tmuxctl.PipeTakenError{Pane: pane}))
			}
			return w.screenResult(ctx, gen.WaitForTextOutputOutcomePaneDied, ""), nil
		}
		return gen.WaitForTextOutput{}, h.explain(ctx, err)
	}
	sctx, cancel := w.Setup()
	defer cancel()
	if p, err := h.tmux.Pane(sctx, pane); err == nil {
		w.pid = p.PID
	}
	if opening == waiting.OnScreen {
		taken, _ := waiting.PipeTaken(err)
		return w.runOnScreen(ctx, taken, in.Patterns, deref(in.Regex)), nil
	}
	return w.run(ctx, s, start), nil
}

// A textWait is one wait_for_text call in progress.
type textWait struct {
	*waiting.Watch
	h        *Handlers
	pid      int
	m        *match.Matcher
	maxLines int

	waiting.Window
	start     int64 // where the wait started
	pos       int64 // end of everything read
	markAfter bool  // the last read ended at a gap in the stream
	synced    bool  // output in flight at the pane's death has been taken in
}

func (w *textWait) run(ctx context.Context, s *live.Stream, start int64) gen.WaitForTextOutput {
	release := s.Hold()
	defer release()
	w.start, w.pos, w.Off = start, start, start
	for {
		changed := s.Changed()
		chunk, err := s.Read(w.pos)
		if err != nil { // cannot happen: pos never passes the end
			return w.result(ctx, s, gen.WaitForTextOutputOutcomeStreamLost, live.ConnectionLost, -1, -1)
		}
		if chunk.TextStart != w.Off+int64(len(w.Text)) {
			// The ring overran the wait's position: what is held no longer
			// joins up with the new text, so start afresh from it.
			w.Drop(len(w.Text))
			w.Off = chunk.TextStart
		}
		prevLen := len(w.Text)
		w.Add(chunk.Text, chunk.Missed)
		w.pos = chunk.End
		w.markAfter = chunk.MarkAfter

		echoed := echo.Spans(string(w.Text), w.h.echo.Active(string(w.Pane), w.pid))
		if ms, me, ok := w.match(prevLen, echoed); ok {
			return w.result(ctx, s, gen.WaitForTextOutputOutcomeMatched, "", ms, me)
		}
		switch {
		case chunk.Lost:
			return w.result(ctx, s, gen.WaitForTextOutputOutcomeOutputLost, "", -1, -1)
		case chunk.Failed != "":
			return w.result(ctx, s, gen.WaitForTextOutputOutcomeStreamLost, chunk.Failed, -1, -1)
		case chunk.Dead && !w.synced:
			// Take in, and match, what tmux read before the death before
			// calling the pane dead.
			w.SyncDeath(ctx, s)
			w.synced = true
			continue
		case chunk.Dead:
			return w.result(ctx, s, gen.WaitForTextOutputOutcomePaneDied, "", -1, -1)
		}
		w.Trim()
		if !w.Next(changed, waiting.Forever) {
			if w.End(w.Ctx.Err()) == waiting.TimedOut {
				return w.result(ctx, s, gen.WaitForTextOutputOutcomeTimedOut, "", -1, -1)
			}
			return w.result(ctx, s, gen.WaitForTextOutputOutcomeCancelled, "", -1, -1)
		}
	}
}

// match looks for a match ending in the text added after prevLen.
func (w *textWait) match(prevLen int, echoed [][2]int) (start, end int, ok bool) {
	text := string(w.Text)
	if !w.m.Empty() {
		return w.m.Find(text, prevLen, echoed)
	}
	// No patterns: the first non-blank new byte that is not our echo
	// ends the wait; the match is its line.
	for i := prevLen; i < len(text); i++ {
		if c := text[i]; c == ' ' || c == '\n' || c == '\t' || echo.Covered(echoed, i, i+1) {
			continue
		}
		lineStart := i
		for lineStart > 0 && text[lineStart-1] != '\n' {
			lineStart--
		}
		lineEnd := i
		for lineEnd < len(text) && text[lineEnd] != '\n' {
			lineEnd++
		}
		return lineStart, lineEnd, true
	}
	return 0, 0, false
}

// result builds the answer for outcome; ms/me is the match in acc, or -1.
func (w *textWait) result(ctx context.Context, s *live.Stream, outcome gen.WaitForTextOutputOutcome, failure live.Failure, ms, me int) gen.WaitForTextOutput {
	out := gen.WaitForTextOutput{
		PaneID:             string(w.Pane),
		Outcome:            outcome,
		EffectiveTimeoutMs: w.EffectiveMs(),
		Matched:            nil,
		StreamFailure:      nil,
		Cursor:             nil,
		Screen:             "",
	}
	cut := w.Cut
	upto := len(w.Text)
	if ms >= 0 {
		matched := string(w.Text[ms:me])
		if w.m.Empty() && len(matched) > maxAnyLineBytes {
			matched = clip.ValidPrefix(matched, maxAnyLineBytes)
		}
		out.Matched = &matched
		upto = me
		if w.markAfter {
			// The cursor stops before the gap, so the gap is not yet missed.
			cut.MissedBytes--
		}
	}
	kept := clip.StreamNewest(w.Text[:upto], w.maxLines, w.h.limits.MaxBytes)
	out.Output = kept.Text
	out = intoWaitForText(cut.Then(kept.Accounting), out)
	if failure != "" {
		out.StreamFailure = wireFailure(failure)
	} else if ms >= 0 {
		out.Cursor = nullableCursor(s.Cursor(w.Off + int64(upto)))
	} else {
		out.Cursor = nullableCursor(s.Cursor(w.pos))
	}
	if outcome != gen.WaitForTextOutputOutcomeMatched {
		w.addScreen(ctx, &out, len(kept.Text))
	}
	return out
}

// addScreen fills screen, screenClamped and alreadyOnScreen after a miss,
// within what the byte ceiling leaves after the output, and counts the
// screen as returned.
func (w *textWait) addScreen(ctx context.Context, out *gen.WaitForTextOutput, used int) {
	screen := w.Screen(ctx, w.h.tmux, w.h.limits.MaxLines, w.h.limits.MaxBytes-used)
	if !screen.OK {
		return // the pane is gone: screen stays ""
	}
	out.Screen, out.ScreenClamped = screen.Text, screen.Clamped
	out.ReturnedBytes += len(screen.Text)
	if !w.m.Empty() {
		echoed := echo.Spans(screen.Text, w.h.echo.Active(string(w.Pane), w.pid))
		out.AlreadyOnScreen = w.m.OnScreen(screen.Text, echoed)
	}
}

// notWatched answers a wait that never watched the pane: it could not be
// watched (no_stream), or tmux took the whole timeout to start (timed_out).
// There is no stream to resume, so no cursor.
func (w *textWait) notWatched(ctx context.Context, outcome gen.WaitForTextOutputOutcome) gen.WaitForTextOutput {
	out := gen.WaitForTextOutput{
		PaneID:             string(w.Pane),
		Outcome:            outcome,
		EffectiveTimeoutMs: w.EffectiveMs(),
	}
	w.addScreen(ctx, &out, 0)
	return out
}

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
		note(ctx, wording.NoteQuietOverTimeout(in.QuietMs, w.EffectiveMs()))
	}
	w.LookFirst(h.tmux, in.Cursor) // a screen wait's baseline is the call's start
	s, start, opening, err := w.Open(in.Cursor)
	switch opening {
	case waiting.SlowToWatch:
		note(ctx, wording.NoteSlowToWatch(err))
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeTimedOut), nil
	case waiting.CancelledEarly:
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeCancelled), nil
	case waiting.OnScreen:
		taken, _ := waiting.PipeTaken(err)
		return w.runOnScreen(ctx, taken), nil
	case waiting.NotWatchable:
		note(ctx, wording.NoteNoStream(err))
		return w.notWatched(ctx, gen.WaitForQuietOutputOutcomeNoStream), nil
	case waiting.OpenFailed:
		if seen, piped := w.LookedFirst(); seen && isNotFound(err) { // it went after the first look
			if piped {
				note(ctx, wording.NoteScreenWatch(&tmuxctl.PipeTakenError{Pane: pane}))
			}
			return w.screenResult(ctx, gen.WaitForQuietOutputOutcomePaneDied), nil
		}
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
	w.addAwaiting(ctx, &out)
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

// addAwaiting says, on a quiet outcome, whether the pane is quiet because
// its program waits for input, and its prompt: only when it does.
func (w *quietWait) addAwaiting(ctx context.Context, out *gen.WaitForQuietOutput) {
	if out.Outcome != gen.WaitForQuietOutputOutcomeQuiet {
		return
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	l, err := w.h.input.Check(cctx, w.Pane, w.quiet)
	if err != nil || !l.Waiting {
		return
	}
	yes, prompt := true, l.Prompt
	out.AwaitingInput = &yes
	if prompt != "" {
		out.Prompt = &prompt
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
