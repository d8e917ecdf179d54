package handlers

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A frameBook keeps the framed commands in flight, one per pane at most,
// and the private directory their files live in (the hub's, which the hub
// removes when it closes).
type frameBook struct {
	mu      sync.Mutex
	dir     string
	running map[tmuxctl.PaneID]running
}

// running is a framed command that has not been seen to end.
type running struct {
	frame  frame
	stream *live.Stream
}

func newFrameBook(dir string) *frameBook {
	return &frameBook{dir: dir, running: map[tmuxctl.PaneID]running{}}
}

// busy reports whether a framed command still runs in pane p.
func (b *frameBook) busy(p tmuxctl.PaneID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.running[p]
	return ok && r.active()
}

// active reports whether the command has not been seen to end.
func (r running) active() bool {
	_, ended := r.stream.FindMarker(r.frame.nonce, "end")
	dead, failure := r.stream.State()
	return !ended && !dead && failure == ""
}

func errBusy(p tmuxctl.PaneID) error {
	return fmt.Errorf("pane %s is still running an earlier command from run_shell_command; follow it with capture_since or wait_for_text, or pass force:true to type into it anyway", p)
}

// claim reserves pane p for frame f, unless a framed command still runs
// there (one whose end marker has not arrived) and force is not set.
func (b *frameBook) claim(p tmuxctl.PaneID, r running, force bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.running[p]; ok {
		if old.active() && !force {
			return false
		}
		old.frame.remove()
	}
	b.running[p] = r
	return true
}

// finish forgets a command that ended.
func (b *frameBook) finish(p tmuxctl.PaneID, f frame) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.running[p]; ok && r.frame.nonce == f.nonce {
		delete(b.running, p)
	}
	f.remove()
}

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
	if h.frames.busy(id) && !in.Force {
		return gen.RunShellCommandOutput{}, errBusy(id)
	}
	kind := shellOf(p.Command)
	if kind == notShell && !in.Force {
		return gen.RunShellCommandOutput{}, fmt.Errorf("pane %s is running %q, not a shell at its prompt; typing a command there would go to that program. Wait for it with wait_for_exit, or pass force:true if %q is a shell", id, p.Command, p.Command)
	}
	if kind == notShell {
		kind = posixShell
	}
	timeout := h.limits.clampMs(float64(in.TimeoutMs)) // the schema's default applies when omitted
	s, err := h.hub.Watch(ctx, id)
	if err != nil {
		return gen.RunShellCommandOutput{}, h.explain(ctx, err)
	}
	release := s.Hold()
	defer release()

	dir := h.frames.dir
	f, err := writeFrame(dir, tmuxctl.Nonce(12), in.Command, kind)
	if err != nil {
		return gen.RunShellCommandOutput{}, fmt.Errorf("writing the command file: %w", err)
	}
	if !h.frames.claim(id, running{frame: f, stream: s}, in.Force) {
		f.remove()
		return gen.RunShellCommandOutput{}, errBusy(id)
	}
	typedAt := s.End()
	h.echo.typed(string(id), p.PID, f.typed, true, true)
	// C-u clears anything already on the command line, so the shell reads
	// exactly the typed line.
	// Once typing starts it finishes, even if the call is cancelled: a
	// line half sent (or sent, with its answer lost) would leave a command
	// running in a pane this server had given up.
	err = h.tmux.TypeLine(context.WithoutCancel(ctx), id, f.typed, p.InMode)
	if err != nil {
		h.frames.finish(id, f)
		return gen.RunShellCommandOutput{}, h.explain(ctx, err)
	}

	out := gen.RunShellCommandOutput{
		PaneID:             string(id),
		Shell:              p.Command,
		EffectiveTimeoutMs: int(timeout / time.Millisecond),
		ExitStatus:         nil,
	}
	wctx, cancel := h.waitContext(ctx, timeout)
	defer cancel()
	defer reportProgress(ctx, timeout, "running a command in pane "+string(id))()
	outcome, start, end, status := h.awaitFrame(ctx, wctx, s, f.nonce)
	out.Outcome = outcome
	switch outcome {
	case gen.RunShellCommandOutputOutcomeCompleted:
		out.ExitStatus = &status
		h.frames.finish(id, f)
	case gen.RunShellCommandOutputOutcomePaneDied:
		h.frames.finish(id, f)
	default:
		out.StillRunning = true
	}
	if outcome == gen.RunShellCommandOutputOutcomePaneDied {
		// Output tmux had already read may still be on its way.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		h.hub.Sync(sctx, s)
		cancel()
		if m, ok := s.FindMarker(f.nonce, "start"); ok {
			start = m.Offset
		}
	}
	if start < 0 {
		// The command has not started (yet): nothing to read; follow the
		// pane from where the typing began.
		cursor := s.Cursor(typedAt)
		out.Cursor = &cursor
		return out, nil
	}
	chunk, err := s.Read(start)
	if err != nil {
		return out, nil
	}
	text := chunk.Text
	if end >= 0 && end-chunk.TextStart < int64(len(text)) {
		text = text[:max(end-chunk.TextStart, 0)]
	}
	kept := keepStreamTail(text, h.limits.lines(in.MaxLines), h.limits.MaxBytes)
	out.Output = kept.Text
	out.DroppedLines = kept.DroppedLines
	out.OmittedBytes = kept.OmittedBytes
	out.MissedBytes = int(chunk.Missed)
	out.ReturnedBytes = len(kept.Text)
	out.OutputComplete = outcome == gen.RunShellCommandOutputOutcomeCompleted && chunk.Missed == 0 && kept.OmittedBytes == 0
	next := chunk.TextStart + int64(len(text))
	if end >= 0 {
		next = end
	} else if chunk.MarkAfter {
		next = chunk.End
	}
	cursor := s.Cursor(next)
	out.Cursor = &cursor
	return out, nil
}

// awaitFrame waits for a framed command's end marker. It returns the
// outcome and the stream offsets of the start and end markers (-1 when not
// seen), and the exit status on completion.
func (h *Handlers) awaitFrame(ctx, wctx context.Context, s *live.Stream, nonce string) (outcome gen.RunShellCommandOutputOutcome, start, end int64, status int) {
	start, end = -1, -1
	for {
		changed := s.Changed()
		if m, ok := s.FindMarker(nonce, "start"); ok {
			start = m.Offset
		}
		if m, ok := s.FindMarker(nonce, "end"); ok {
			return gen.RunShellCommandOutputOutcomeCompleted, start, m.Offset, m.Status
		}
		if dead, failure := s.State(); dead {
			return gen.RunShellCommandOutputOutcomePaneDied, start, -1, 0
		} else if failure != "" {
			// The stream ended (connection lost, shutdown), not the shell:
			// the command may well still run.
			return gen.RunShellCommandOutputOutcomeCancelled, start, -1, 0
		}
		select {
		case <-changed:
		case <-time.After(deathCheckInterval):
			h.hub.CheckPane(wctx, s.Pane())
		case <-wctx.Done():
			if h.howEnded(ctx, wctx.Err()) == waitTimedOut {
				return gen.RunShellCommandOutputOutcomeTimedOut, start, -1, 0
			}
			return gen.RunShellCommandOutputOutcomeCancelled, start, -1, 0
		}
	}
}
