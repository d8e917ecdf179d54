package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/commandbook"
	"github.com/tmux-mcp/tmux-mcp/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/internal/waiting"
	"sync"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// RunShellCommand runs a command line in the shell of a pane and returns
// its exit status and exactly what it printed. The command goes into a
// private file that the shell sources, framed by invisible markers, so
// commands of any size and content work and the typed line is short.
func (h *Handlers) RunShellCommand(ctx context.Context, in gen.RunShellCommandInput) (gen.RunShellCommandOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.RunShellCommandOutput{}, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, in.Force, "run a command in"); err != nil {
		return gen.RunShellCommandOutput{}, err
	}
	switch {
	case p.Dead:
		return gen.RunShellCommandOutput{}, fmt.Errorf("pane %s is dead (its program exited%s); start a shell with create_window or respawn it", id, exitSuffix(p))
	case p.InMode && !in.Force:
		return gen.RunShellCommandOutput{}, fmt.Errorf("pane %s is in copy mode (or another tmux mode); pass force:true to leave it and run anyway", id)
	}
	if c := h.commands.Busy(id); c != nil && !in.Force {
		return gen.RunShellCommandOutput{}, commandbook.ErrBusy(c)
	}
	kind, shell := shellframe.Of(p.Command), p.Command
	if kind == shellframe.NotShell {
		// The pane's own process may be a shell that is busy, or still
		// starting (its rc file runs a program): forced, the command is
		// typed ahead, in that shell's syntax, and runs when it reads it.
		own := shellframe.ProcessName(p.PID)
		// A shell still starting is not told apart from a busy one, so
		// both need force. "Its child is in the foreground and it has
		// never shown a prompt" cannot be known: a stream started now
		// has not seen the shell's past (an hour-old shell running vim
		// looks the same), prompts are arbitrary text, and even a shell
		// truly in its rc file may be running a program that reads the
		// terminal (a passphrase prompt, read), which would take the
		// typed line as vim would.
		if !in.Force {
			if shellframe.Of(own) != shellframe.NotShell {
				return gen.RunShellCommandOutput{}, fmt.Errorf("pane %s is running %q in its shell (%s), which is busy or still starting; typing a command there would go to that program. Wait for it, or pass force:true to type the command ahead: it runs when the shell reads it (state not_started until then)", id, p.Command, own)
			}
			return gen.RunShellCommandOutput{}, fmt.Errorf("pane %s is running %q, not a shell at its prompt; typing a command there would go to that program. Wait for it with wait_for_exit, or pass force:true if %q is a shell", id, p.Command, p.Command)
		}
		kind = shellframe.POSIX
		if k := shellframe.Of(own); k != shellframe.NotShell {
			kind, shell = k, own
		}
	}
	s, err := h.hub.Watch(ctx, id)
	if err != nil {
		return gen.RunShellCommandOutput{}, h.explain(ctx, err)
	}

	f, err := shellframe.Write(h.commands.Dir(), tmuxctl.Nonce(12), in.Command, shellframe.Label(in.Command), kind)
	if err != nil {
		return gen.RunShellCommandOutput{}, fmt.Errorf("writing the command file: %w", err)
	}
	// The command holds the stream until it is seen to end, so that
	// wait_for_command finds it however long it runs.
	c := &commandbook.Command{Pane: id, Shell: shell, Files: f, Stream: s, TypedAt: s.End(), Release: sync.OnceFunc(s.Hold())}
	if old, ok := h.commands.Add(c, in.Force); !ok {
		f.Remove()
		c.Release()
		return gen.RunShellCommandOutput{}, commandbook.ErrBusy(old)
	}
	h.echo.Typed(string(id), p.PID, f.Typed, true, true)
	// C-u clears anything already on the command line, so the shell reads
	// exactly the typed line.
	// Once typing starts it finishes, even if the call is cancelled: a
	// line half sent (or sent, with its answer lost) would leave a command
	// running in a pane this server had given up.
	err = h.tmux.TypeLine(context.WithoutCancel(ctx), id, f.Typed, p.InMode)
	if err != nil {
		h.commands.Forget(c)
		return gen.RunShellCommandOutput{}, h.explain(ctx, err)
	}
	return h.followCommand(ctx, c, float64(in.TimeoutMs), // the schema's default applies when omitted
		outputCut{keepPart(in.Keep, gen.RunShellCommandInputKeepHead, gen.RunShellCommandInputKeepBoth), in.MaxLines}), nil
}

// WaitForCommand waits for a command run_shell_command typed, or returns
// its stored result if it already ended.
func (h *Handlers) WaitForCommand(ctx context.Context, in gen.WaitForCommandInput) (gen.WaitForCommandOutput, error) {
	c, ok := h.commands.Find(in.CommandID)
	if !ok {
		return gen.WaitForCommandOutput{}, h.commands.ErrUnknown(in.CommandID)
	}
	cut := outputCut{keepPart(in.Keep, gen.WaitForCommandInputKeepHead, gen.WaitForCommandInputKeepBoth), in.MaxLines}
	var out gen.RunShellCommandOutput
	if r, span := h.commands.Stored(c); r != nil {
		out = *r
		out.EffectiveTimeoutMs = h.effectiveMs(float64(in.TimeoutMs)) // the timeout it would have enforced
		textStart, text, missed := commandbook.ReadSpan(c.Stream, span)
		out = h.withOutput(c.Stream, out, textStart, text, missed, cut)
	} else {
		out = h.followCommand(ctx, c, float64(in.TimeoutMs), cut)
	}
	var w gen.WaitForCommandOutput
	b, err := json.Marshal(out)
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	return w, err
}

// withOutput puts a command's output in its result, cut as the call asks:
// text, at stream offset textStart, is what it printed, after missed bytes
// more than out already counts were lost.
func (h *Handlers) withOutput(s *live.Stream, out gen.RunShellCommandOutput, textStart int64, text []byte, missed int, c outputCut) gen.RunShellCommandOutput {
	kept := h.cut(s, textStart, text, c)
	out.Output = kept.Text
	out.OutputComplete = out.OutputComplete && missed == 0 && kept.OmittedBytes == 0
	// out counts only what the stream lost before the command's output
	// was read; the cut is this call's own.
	kept.Accounting = kept.Missing(int64(out.MissedBytes + missed))
	return intoRunShellCommandCut(kept, out)
}

// followCommand waits up to timeoutMs for command c to end and reports
// where it is and what it printed so far. An ended command's result is
// stored for wait_for_command with where its output lies in the stream, so
// that each call cuts that output its own way.
func (h *Handlers) followCommand(ctx context.Context, c *commandbook.Command, timeoutMs float64, cut outputCut) gen.RunShellCommandOutput {
	s := c.Stream
	w := h.beginWait(ctx, timeoutMs, "running "+c.ID+" in pane "+string(c.Pane))
	defer w.Done()
	out := gen.RunShellCommandOutput{
		CommandID:          c.ID,
		PaneID:             string(c.Pane),
		Shell:              c.Shell,
		EffectiveTimeoutMs: w.EffectiveMs(),
	}
	outcome, start, end, m := h.awaitCommand(w, c)
	out.Outcome = outcome
	ended := true
	switch outcome {
	case gen.RunShellCommandOutputOutcomeTimedOut, gen.RunShellCommandOutputOutcomeCancelled:
		ended = false
		out.StillRunning = true
	case gen.RunShellCommandOutputOutcomePaneDied:
		// Output tmux had already read may still be on its way.
		w.Watch(h.hub, c.Pane).SyncDeath(ctx, s)
		if mk, ok := s.FindMarker(c.Files.Nonce, frame.Start); ok {
			start = mk.Offset
		}
	default:
		status := m.Status
		out.ExitStatus = &status
		if sig := commandbook.SignalOf(m); sig != "" {
			out.Signal = &sig
		}
	}
	switch {
	case ended:
		out.State = gen.RunShellCommandOutputStateEnded
	case start >= 0:
		out.State = gen.RunShellCommandOutputStateRunning
	default:
		out.State = gen.RunShellCommandOutputStateNotStarted
	}
	var span commandbook.Span
	var text []byte
	if start < 0 {
		// The command has not started (yet): nothing to read; follow the
		// pane from where the typing began.
		cursor := s.Cursor(c.TypedAt)
		out.Cursor = &cursor
	} else if chunk, err := s.Read(start); err == nil {
		text = chunk.Text
		if end >= 0 && end-chunk.TextStart < int64(len(text)) {
			text = text[:max(end-chunk.TextStart, 0)]
		}
		span = commandbook.Span{From: chunk.TextStart, To: chunk.TextStart + int64(len(text)), OK: true}
		out.MissedBytes = int(chunk.Missed)
		out.OutputComplete = ended && outcome != gen.RunShellCommandOutputOutcomePaneDied && chunk.Missed == 0
		next := chunk.TextStart + int64(len(text))
		if end >= 0 {
			next = end
		} else if chunk.MarkAfter {
			next = chunk.End
		}
		cursor := s.Cursor(next)
		out.Cursor = &cursor
	}
	if ended {
		h.commands.End(c, out, span, m)
	}
	return h.withOutput(s, out, span.From, text, 0, cut)
}

// awaitCommand waits for a command's end. It returns the outcome, the
// stream offsets of the start and end markers (-1 when not seen), and the
// marker that ended it.
func (h *Handlers) awaitCommand(w *waiting.Wait, c *commandbook.Command) (outcome gen.RunShellCommandOutputOutcome, start, end int64, m frame.Marker) {
	s := c.Stream
	watch := w.Watch(h.hub, s.Pane())
	start, end = -1, -1
	for {
		changed := s.Changed()
		if mk, ok := s.FindMarker(c.Files.Nonce, frame.Start); ok {
			start = mk.Offset
		}
		if mk, ok := commandbook.EndOf(c); ok {
			return commandbook.OutcomeOf(mk), start, mk.Offset, mk
		}
		if dead, failure := s.State(); dead {
			return gen.RunShellCommandOutputOutcomePaneDied, start, -1, frame.Marker{}
		} else if failure != "" {
			// The stream ended (connection lost, shutdown), not the shell:
			// the command may well still run.
			return gen.RunShellCommandOutputOutcomeCancelled, start, -1, frame.Marker{}
		}
		if !watch.Next(changed, waiting.Forever) {
			if w.End(w.Ctx.Err()) == waiting.TimedOut {
				return gen.RunShellCommandOutputOutcomeTimedOut, start, -1, frame.Marker{}
			}
			return gen.RunShellCommandOutputOutcomeCancelled, start, -1, frame.Marker{}
		}
	}
}
