// This file holds wait_for_input, of the catalogue family Watching output
// as it streams: a wait until the program in a pane asks for input
// (package inputwait says when).

package handlers

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/inputwait"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// lastLinesKept is how many of the screen's last lines a wait_for_input
// result gives: enough for a question and the lines that lead to it.
const lastLinesKept = 8

// WaitForInput waits until the program in a pane waits for terminal input
// (a question, a password prompt, a REPL or a shell ready for its next
// line, a full-screen program waiting for a key), exits, the pane goes,
// the timeout passes or the call is cancelled. It answers once the pane
// has been quiet for [inputwait.Quiet] and the engine finds the program
// waiting, with the prompt, the program, the evidence, the screen's last
// lines and a cursor.
func (h *Handlers) WaitForInput(ctx context.Context, in gen.WaitForInputInput) (gen.WaitForInputOutput, error) {
	pane := tmuxctl.PaneID(in.PaneID)
	w := &inputWait{Watch: h.beginWait(ctx, waiting.OrDefault(in.TimeoutMs), "waiting for the program in pane "+string(pane)+" to ask for input").Watch(h.hub, pane),
		h: h, watcher: h.input.Watch(pane)}
	defer w.Done()
	// Held while the call waits, the pane stays until its exit status is
	// read: a program that ends instead of asking says how. A brief hold
	// leaves nothing behind once the call returns (the tool is read-only).
	release, err := h.exits.HoldBriefly(w.Ctx, pane)
	if err != nil {
		switch w.End(err) {
		case waiting.Cancelled:
			return w.result(ctx, gen.WaitForInputOutputOutcomeCancelled), nil
		case waiting.TimedOut:
			return w.result(ctx, gen.WaitForInputOutputOutcomeTimedOut), nil
		}
		if isNotFound(err) {
			if e, ok := h.exits.Recorded(ctx, pane); ok {
				return w.exited(e), nil
			}
			return gen.WaitForInputOutput{}, wording.NotFound(ctx, h.tmux, "pane", string(pane))
		}
		return gen.WaitForInputOutput{}, h.explain(ctx, err)
	}
	defer release()
	s, start, opening, err := w.Open(nil)
	switch opening {
	case waiting.SlowToWatch:
		return w.result(ctx, gen.WaitForInputOutputOutcomeTimedOut), nil
	case waiting.CancelledEarly:
		return w.result(ctx, gen.WaitForInputOutputOutcomeCancelled), nil
	case waiting.OnScreen, waiting.NotWatchable:
		return w.runOnScreen(ctx), nil
	case waiting.OpenFailed:
		return gen.WaitForInputOutput{}, h.explain(ctx, err)
	}
	return w.run(ctx, s, start), nil
}

// An inputWait is one wait_for_input call in progress.
type inputWait struct {
	*waiting.Watch
	h       *Handlers
	watcher *inputwait.Watcher
	last    inputwait.Look // the last check's
	s       *live.Stream   // nil when the pane's screen is watched instead
	pos     int64
	tail    []byte // the newest text the stream brought, at most tailBytes
}

// tailBytes bounds the text an inputWait keeps for an exited result's
// last lines: tmux 3.3a clears the screen of a pane kept by remain-on-exit
// when its program dies, so the screen then no longer shows them.
const tailBytes = 8 << 10

func (w *inputWait) run(ctx context.Context, s *live.Stream, start int64) gen.WaitForInputOutput {
	release := s.Hold()
	defer release()
	w.s, w.pos = s, start
	synced := false
	for {
		changed := s.Changed()
		chunk, err := s.Read(w.pos)
		if err != nil || chunk.Failed != "" {
			// The stream ended for good; the screen still tells.
			w.s = nil
			return w.runOnScreen(ctx)
		}
		w.pos = chunk.End
		if len(chunk.Text) > 0 || chunk.Missed > 0 {
			w.watcher.Output()
			w.tail = append(w.tail, chunk.Text...)
			if len(w.tail) > tailBytes {
				w.tail = w.tail[len(w.tail)-tailBytes:]
			}
		}
		if chunk.Dead {
			if !synced {
				w.SyncDeath(ctx, s) // the output before the death, for the cursor
				synced = true
				continue
			}
			return w.ended(ctx)
		}
		if w.watcher.Due() <= 0 {
			if out, done := w.check(ctx); done {
				return out
			}
			continue
		}
		if !w.Next(changed, w.watcher.Due()) {
			return w.timedOutOrCancelled(ctx)
		}
	}
}

// runOnScreen is wait_for_input on a pane whose output cannot be streamed
// (someone else's pipe is on it): the screen changing stands for output.
func (w *inputWait) runOnScreen(ctx context.Context) gen.WaitForInputOutput {
	var rows []string
	for {
		select {
		case <-time.After(max(w.watcher.Due(), 0)):
		case <-w.Ctx.Done():
			return w.timedOutOrCancelled(ctx)
		}
		before := rows
		out, done := w.check(ctx)
		if done && (before == nil || slices.Equal(before, w.last.Screen.Rows)) {
			return out
		}
		if rows = w.last.Screen.Rows; before != nil && !slices.Equal(before, rows) {
			w.watcher.Output()
		}
	}
}

// check runs the engine's check; done when the wait has its answer.
func (w *inputWait) check(ctx context.Context) (gen.WaitForInputOutput, bool) {
	l, err := w.watcher.Check(w.Ctx)
	switch {
	case isNotFound(err) || l.Dead:
		return w.ended(ctx), true
	case err != nil && w.Ctx.Err() != nil:
		return w.timedOutOrCancelled(ctx), true
	case err != nil:
		return gen.WaitForInputOutput{}, false // a tmux hiccup: the next check will tell
	}
	w.last = l
	if !l.Waiting {
		return gen.WaitForInputOutput{}, false
	}
	out := w.result(ctx, gen.WaitForInputOutputOutcomeAwaitingInput)
	return out, true
}

// ended answers a wait whose pane's program ended: exited with its
// status, or pane_died when the pane went without one.
func (w *inputWait) ended(ctx context.Context) gen.WaitForInputOutput {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	e, err := w.h.exits.Wait(sctx, w.Pane)
	if err != nil {
		if errors.Is(err, live.ErrPaneGone) || isNotFound(err) {
			if e, ok := w.h.exits.Recorded(sctx, w.Pane); ok {
				return w.exited(e)
			}
		}
		out := w.result(ctx, gen.WaitForInputOutputOutcomePaneDied)
		out.Evidence, out.Program, out.Prompt = nil, nil, nil
		return out
	}
	out := w.exited(e)
	out.Cursor = w.cursor()
	switch text := strings.TrimRight(strings.ToValidUTF8(string(w.tail), "\uFFFD"), "\r\n"); {
	case text != "":
		// What the program printed last, from the stream.
		out.LastLines = w.keep(strings.Split(strings.ReplaceAll(text, "\r", ""), "\n"))
	case w.last.Screen.Rows != nil:
		out.LastLines = w.lastLines(ctx, &w.last.Screen)
	default:
		out.LastLines = w.lastLines(ctx, nil)
	}
	return out
}

func (w *inputWait) exited(e live.Exit) gen.WaitForInputOutput {
	return gen.WaitForInputOutput{
		Outcome:    gen.WaitForInputOutputOutcomeExited,
		ExitStatus: e.Status,
		Signal:     e.Signal,
		Cursor:     w.cursor(),
		LastLines:  []string{},
	}
}

func (w *inputWait) timedOutOrCancelled(ctx context.Context) gen.WaitForInputOutput {
	if w.End(w.Ctx.Err()) == waiting.TimedOut {
		return w.result(ctx, gen.WaitForInputOutputOutcomeTimedOut)
	}
	return w.result(ctx, gen.WaitForInputOutputOutcomeCancelled)
}

// result builds an answer with the last check's verdict: on timed_out,
// its evidence says why the program is not taken as waiting.
func (w *inputWait) result(ctx context.Context, outcome gen.WaitForInputOutputOutcome) gen.WaitForInputOutput {
	var judged *inputwait.Screen // the screen the verdict rests on, else a fresh capture
	if outcome == gen.WaitForInputOutputOutcomeAwaitingInput {
		judged = &w.last.Screen
	}
	out := gen.WaitForInputOutput{Outcome: outcome, Cursor: w.cursor(), LastLines: w.lastLines(ctx, judged)}
	if outcome == gen.WaitForInputOutputOutcomeTimedOut {
		ms := w.EffectiveMs()
		out.EffectiveTimeoutMs = &ms
	}
	if v := w.last.Verdict; v.Program != "" || len(v.Evidence) > 0 {
		out.Program, out.Evidence = &v.Program, v.Evidence
		if v.Waiting {
			out.Prompt = &v.Prompt
		}
	}
	return out
}

func (w *inputWait) cursor() any {
	if w.s == nil {
		return nil
	}
	return nullableCursor(w.s.Cursor(w.pos))
}

// lastLines is the end of the screen judged, or else of a fresh capture,
// within the server's byte ceiling.
func (w *inputWait) lastLines(ctx context.Context, judged *inputwait.Screen) []string {
	var screen inputwait.Screen
	if judged != nil {
		screen = *judged
	} else {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		lines, err := w.h.tmux.Capture(sctx, w.Pane, tmuxctl.CaptureOptions{})
		if err != nil {
			return []string{}
		}
		screen.Rows = lines
	}
	rows := screen.Rows
	// A pane kept by remain-on-exit ends with tmux's own line, not the
	// program's (3.2a: "Pane is dead"; 3.3a on: with the status and time).
	if n := len(clip.TrimBlankTail(rows)); n > 0 && strings.HasPrefix(rows[n-1], "Pane is dead") {
		rows = rows[:n-1]
	}
	return w.keep(rows)
}

// keep is the last lastLinesKept of rows, blank ones at the end dropped,
// within the server's byte ceiling.
func (w *inputWait) keep(rows []string) []string {
	rows = inputwait.Screen{Rows: rows}.LastLines(lastLinesKept)
	kept := clip.Newest(rows, lastLinesKept, w.h.limits.MaxBytes)
	if kept.Text == "" {
		return []string{}
	}
	return strings.Split(kept.Text, "\n")
}
