package framed

import (
	"context"
	"sync"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A Request is one command line to run in the shell of a pane.
type Request struct {
	Pane    tmuxctl.PaneID
	PID     int             // the pane's process, for the echo book
	Shell   string          // the shell's name, as the result reports it
	Kind    shellframe.Kind // the syntax the command is framed in
	Command string          // the caller's command, verbatim
	Force   bool            // type it even if a command reserves the pane
	InMode  bool            // the pane is in a mode, which typing leaves
}

// Type frames command r.Command in a private file, reserves the pane for
// it (unless an earlier command reserves it and r.Force is not set: see
// [Book.Free]) and types the short line that sources it. The command holds the
// pane's stream until it is seen to end, so that [Book.Follow] finds it
// however long it runs. Its errors are worded for the agent.
func (b *Book) Type(ctx context.Context, r Request) (*Command, error) {
	s, err := b.hub.Watch(ctx, r.Pane)
	if err != nil {
		return nil, wording.Explain(ctx, b.tmux, err)
	}
	f, err := shellframe.Write(b.dir, tmuxctl.Nonce(12), r.Command, shellframe.Label(r.Command), r.Kind)
	if err != nil {
		return nil, wording.CommandFile(err)
	}
	c := &Command{Pane: r.Pane, Shell: r.Shell, Files: f, Stream: s, TypedAt: s.End(), Release: sync.OnceFunc(s.Hold())}
	if err := b.add(c, r.Force); err != nil {
		f.Remove()
		c.Release()
		return nil, err
	}
	b.echo.Typed(string(r.Pane), r.PID, f.Typed, true, true)
	// C-u clears anything already on the command line, so the shell reads
	// exactly the typed line.
	// Once typing starts it finishes, even if the call is cancelled: a
	// line half sent (or sent, with its answer lost) would leave a command
	// running in a pane this server had given up.
	if err := b.tmux.TypeLine(context.WithoutCancel(ctx), r.Pane, f.Typed, r.InMode); err != nil {
		b.forget(c)
		return nil, wording.Explain(ctx, b.tmux, err)
	}
	return c, nil
}

// An Outcome is how a wait on a command ended.
type Outcome int

const (
	Completed     Outcome = iota + 1 // it ended by itself (with a status)
	Interrupted                      // a signal ended it, or the shell abandoned it
	Suspended                        // it was stopped and left as a job
	TimedOut                         // the wait's timeout came first; it runs on
	Cancelled                        // the call or the stream ended first; it may run on
	PaneDied                         // its pane's program ended
	AwaitingInput                    // it waits for input (see Asking); it runs on
)

// A State is where a command is when a wait on it ends.
type State int

const (
	NotStarted State = iota + 1 // typed, but the shell has not started it
	Running
	Ended
)

// A Result is what a wait on a command found.
type Result struct {
	ID      string
	Pane    tmuxctl.PaneID
	Shell   string
	Outcome Outcome
	State   State
	Status  *int   // its exit status, when it ended
	Signal  string // the signal that ended it, when known
	// Text is what it printed so far, starting at stream offset
	// TextStart; Missed bytes of it the stream lost. Complete: it ended
	// and all it printed is in Text.
	TextStart int64
	Text      []byte
	Missed    int
	Complete  bool
	Cursor    *string // where to follow the pane from; nil when unknown
	Asking    Asking  // with AwaitingInput: the prompt and the evidence
}

// Follow waits, within w (of the call ctx), for command c to end and
// reports where it is and what it printed so far; with untilInput, it
// also ends once the command has started and waits for terminal input.
// An ended command's result is kept for [Book.Stored] with where its
// output lies in the stream, so that each call cuts that output its own
// way.
func (b *Book) Follow(ctx context.Context, w *waiting.Wait, c *Command, untilInput bool) Result {
	s := c.Stream
	r := Result{ID: c.ID, Pane: c.Pane, Shell: c.Shell}
	outcome, start, end, m := b.await(w, c, b.asker(s, untilInput), &r.Asking)
	r.Outcome = outcome
	ended := true
	switch outcome {
	case TimedOut, Cancelled, AwaitingInput:
		ended = false
	case PaneDied:
		// Output tmux had already read may still be on its way.
		w.Watch(b.hub, c.Pane).SyncDeath(ctx, s)
		if mk, ok := s.FindMarker(c.Files.Nonce, frame.Start); ok {
			start = mk.Offset
		}
	default:
		status := m.Status
		r.Status = &status
		r.Signal = signalOf(m)
	}
	switch {
	case ended:
		r.State = Ended
	case start >= 0:
		r.State = Running
	default:
		r.State = NotStarted
	}
	var span outputSpan
	if start < 0 {
		// The command has not started (yet): nothing to read; follow the
		// pane from where the typing began.
		cursor := s.Cursor(c.TypedAt)
		r.Cursor = &cursor
	} else if chunk, err := s.Read(start); err == nil {
		text := chunk.Text
		if end >= 0 && end-chunk.TextStart < int64(len(text)) {
			text = text[:max(end-chunk.TextStart, 0)]
		}
		span = outputSpan{From: chunk.TextStart, To: chunk.TextStart + int64(len(text)), OK: true}
		r.TextStart, r.Text = span.From, text
		r.Missed = int(chunk.Missed)
		r.Complete = ended && outcome != PaneDied && chunk.Missed == 0
		next := span.To
		if end >= 0 {
			next = end
		} else if chunk.MarkAfter {
			next = chunk.End
		}
		cursor := s.Cursor(next)
		r.Cursor = &cursor
	}
	if ended {
		b.end(c, r, span, m)
	}
	return r
}

// await waits for a command's end, or (ask not nil) for it to wait for
// input once started, which it puts in asking. It returns the outcome,
// the stream offsets of the start and end markers (-1 when not seen), and
// the marker that ended it.
func (b *Book) await(w *waiting.Wait, c *Command, ask *asker, asking *Asking) (outcome Outcome, start, end int64, m frame.Marker) {
	s := c.Stream
	watch := w.Watch(b.hub, s.Pane())
	start, end = -1, -1
	for {
		changed := s.Changed()
		// The state before the markers: a stream is dead or failed only
		// after its last output, so an end printed before either is seen.
		// And one look at the markers: the start and end often arrive
		// together, and an end seen without its start would lose the
		// command's output.
		dead, failure := s.State()
		f := c.frame()
		if f.Start >= 0 {
			start = f.Start
		}
		if f.Ended {
			return outcomeOf(f.End), start, f.End.Offset, f.End
		}
		if dead {
			return PaneDied, start, -1, frame.Marker{}
		} else if failure != "" {
			// The stream ended (connection lost, shutdown), not the shell:
			// the command may well still run.
			return Cancelled, start, -1, frame.Marker{}
		}
		// Only a command that started is judged: before, the shell at its
		// prompt, about to read the typed line, looks like one waiting.
		left := waiting.Forever
		if start >= 0 {
			if a, ok := ask.asks(w.Ctx); ok {
				// The judgement took a moment: the command may have ended
				// meanwhile (its shell at its prompt waits for input too).
				// And a prompt shown before the command printed anything is
				// not its question but what the pane showed before (the
				// shell's prompt, with the terminal's echo off): a program
				// that polls the terminal, as tmux's own client does, is
				// then not taken for one that waits for an answer.
				if !c.frame().Ended && (a.Prompt == "" || printedSince(s, start)) {
					*asking = a
					return AwaitingInput, start, -1, frame.Marker{}
				}
				continue
			}
			left = ask.left()
		}
		if !watch.Next(changed, left) {
			if w.End(w.Ctx.Err()) == waiting.TimedOut {
				return TimedOut, start, -1, frame.Marker{}
			}
			return Cancelled, start, -1, frame.Marker{}
		}
	}
}

// printedSince reports whether stream s holds output after offset start.
func printedSince(s *live.Stream, start int64) bool {
	chunk, err := s.Read(start)
	return err == nil && len(chunk.Text) > 0
}
