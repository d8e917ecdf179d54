// This file holds wait_for_command {paneId}: a command typed at a shell
// that marks its prompts (OSC 133), by anyone, followed through the marks
// the pane's stream reads (live.Stream.Shell).

package handlers

import (
	"context"
	"encoding/json"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/framed"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// waitForPaneCommand waits for the command run_shell_command runs in pane
// in.PaneID now, or the one its marked shell runs now, else returns the
// last one that ended (marked, or else this server's), or with
// in.Next waits for the next one to start and end; the result is what
// wait_for_command gives for run_shell_command's commands, without a
// commandId.
func (h *Handlers) waitForPaneCommand(ctx context.Context, in gen.WaitForCommandInput) (gen.WaitForCommandOutput, error) {
	if in.PaneID == nil || in.CommandID != nil {
		return gen.WaitForCommandOutput{}, wording.CommandOrPane()
	}
	pane := tmuxctl.PaneID(*in.PaneID)
	wantNext := in.Next != nil && *in.Next
	// The command run_shell_command runs there now is the one meant,
	// marked shell or not.
	own, running := h.commands.InPane(pane)
	if running && !wantNext {
		return h.waitForOwnCommand(ctx, in, own)
	}
	cut := h.cutRequest(keepPart(in.Keep, gen.WaitForCommandInputKeepHead, gen.WaitForCommandInputKeepBoth), in.MaxLines)
	w := h.beginWait(ctx, float64(in.TimeoutMs), "waiting for the command in pane "+string(pane))
	defer w.Done()
	watch := w.Watch(h.hub, pane)
	fresh := h.hub.Watching(pane) == nil
	s, _, opening, err := watch.Open(nil)
	switch opening {
	case waiting.Watching:
	case waiting.SlowToWatch, waiting.CancelledEarly:
		return paneCommandResult(gen.RunShellCommandOutput{PaneID: string(pane), EffectiveTimeoutMs: w.EffectiveMs(),
			Outcome: outcomeOf(w, err), StillRunning: true, State: gen.RunShellCommandOutputStateNotStarted,
			EffectiveMaxLines: cut.MaxLines, MaxLinesClamped: cut.Clamped})
	default:
		return gen.WaitForCommandOutput{}, h.explain(ctx, err)
	}
	defer s.Hold()()
	if fresh {
		s.Sync(w.Ctx) // the marks another instance's tap kept
		fresh = s.End() == 0
	}

	st := s.Shell()
	var seq int64 // the command to report
	switch {
	case wantNext:
		seq = st.Seq + 1
	case st.Running != nil:
		seq = st.Running.Seq
	case st.Last != nil:
		seq = st.Last.Seq
	case !st.Marked && own != nil:
		// An unmarked shell: the last command this server ran there.
		w.Done()
		return h.waitForOwnCommand(ctx, in, own)
	case !st.Marked:
		return gen.WaitForCommandOutput{}, wording.NoShellMarks(pane, fresh)
	default:
		seq = st.Seq + 1 // marked, but nothing ran yet: the first one
	}
	r := framed.Result{Pane: pane}
	var c live.ShellCommand
	started := false
	for {
		changed := s.Changed()
		dead, failure := s.State()
		c, started = s.ShellCommand(seq)
		if started && c.Ended() {
			r.Outcome = framed.Completed
			if c.Status != frame.NoStatus {
				status := c.Status
				r.Status = &status
			}
			break
		}
		if dead {
			watch.SyncDeath(ctx, s)
			r.Outcome = framed.PaneDied
			break
		}
		if failure != "" {
			r.Outcome = framed.Cancelled
			break
		}
		if !watch.Next(changed, waiting.Forever) {
			r.Outcome = framed.Cancelled
			if w.End(w.Ctx.Err()) == waiting.TimedOut {
				r.Outcome = framed.TimedOut
			}
			break
		}
	}
	switch {
	case r.Outcome == framed.Completed:
		r.State = framed.Ended
	case started:
		r.State = framed.Running
	default:
		r.State = framed.NotStarted
	}
	next := s.End()
	r.TextStart = next
	if started {
		if chunk, err := s.Read(c.Start); err == nil {
			text := chunk.Text
			if c.Ended() && c.End-chunk.TextStart < int64(len(text)) {
				text = text[:max(c.End-chunk.TextStart, 0)]
			}
			r.TextStart, r.Text, r.Missed = chunk.TextStart, text, int(chunk.Missed)
			r.Complete = c.Ended() && chunk.Missed == 0
			next = chunk.TextStart + int64(len(text))
			if c.Ended() {
				next = c.End
			} else if chunk.MarkAfter {
				next = chunk.End
			}
		}
	}
	cursor := s.Cursor(next)
	r.Cursor = &cursor
	return paneCommandResult(h.commandOutput(s, r, w.EffectiveMs(), cut))
}

// outcomeOf is the outcome of a wait that ended with err.
func outcomeOf(w *waiting.Wait, err error) gen.RunShellCommandOutputOutcome {
	if w.End(err) == waiting.TimedOut {
		return gen.RunShellCommandOutputOutcomeTimedOut
	}
	return gen.RunShellCommandOutputOutcomeCancelled
}

// paneCommandResult is wait_for_command's result for a marked command:
// run_shell_command's, less the commandId and shell it has none of.
func paneCommandResult(out gen.RunShellCommandOutput) (gen.WaitForCommandOutput, error) {
	var fields map[string]json.RawMessage
	var w gen.WaitForCommandOutput
	b, err := json.Marshal(out)
	if err == nil {
		err = json.Unmarshal(b, &fields)
	}
	if err == nil {
		delete(fields, "commandId")
		delete(fields, "shell")
		b, err = json.Marshal(fields)
	}
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	return w, err
}
