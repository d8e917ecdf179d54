// This file holds the tools of the catalogue family Programs and their exit
// status (run_shell_command, wait_for_command, start_program, run_program,
// wait_for_exit).

package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/commandbook"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// shellPane reads pane id for run_shell_command. A pane just made shows
// tmux's own fork, or a program its shell starts with, as its command for
// a moment: while the pane's process is under a second old and has not
// exec'd yet, or is a shell whose command is not the shell, it is asked
// again, briefly (shellAsks times, shellPause apart), before the command
// is refused as busy. Forced, the command is typed ahead anyway, so the
// pane is read once.
func (h *Handlers) shellPane(ctx context.Context, id tmuxctl.PaneID, force bool) (tmuxctl.Pane, error) {
	p, err := h.tmux.Pane(ctx, id)
	for ask := 1; ask < shellAsks && err == nil && !force && h.shellStarting(p); ask++ {
		select {
		case <-ctx.Done():
			return p, nil
		case <-time.After(shellPause):
		}
		p, err = h.tmux.Pane(ctx, id)
	}
	return p, err
}

const (
	shellAsks  = 50
	shellPause = 10 * time.Millisecond
)

// shellStarting says whether live pane p's process is still tmux's fork,
// not exec'd yet, or a young shell whose foreground is something else:
// still starting, or busy at once.
func (h *Handlers) shellStarting(p tmuxctl.Pane) bool {
	if p.Dead || p.PID <= 0 || shellframe.Of(p.Command) != shellframe.NotShell {
		return false
	}
	return proc.StartedWithin(p.PID, cwdYoung) &&
		(h.execs.stillForked(p) || shellframe.Of(shellframe.ProcessName(p.PID)) != shellframe.NotShell)
}

// RunShellCommand runs a command line in the shell of a pane and returns
// its exit status and exactly what it printed. The command goes into a
// private file that the shell sources, framed by invisible markers, so
// commands of any size and content work and the typed line is short.
func (h *Handlers) RunShellCommand(ctx context.Context, in gen.RunShellCommandInput) (gen.RunShellCommandOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.shellPane(ctx, id, in.Force)
	if err != nil {
		return gen.RunShellCommandOutput{}, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, in.Force, "run a command in"); err != nil {
		return gen.RunShellCommandOutput{}, err
	}
	switch {
	case p.Dead:
		return gen.RunShellCommandOutput{}, wording.PaneDead(p)
	case p.InMode && !in.Force:
		return gen.RunShellCommandOutput{}, wording.InMode(id, "leave the mode and run the command")
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
				return gen.RunShellCommandOutput{}, wording.ShellBusy(id, p.Command, own)
			}
			return gen.RunShellCommandOutput{}, wording.NotAShell(id, p.Command)
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
		return gen.RunShellCommandOutput{}, wording.CommandFile(err)
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
		h.cutRequest(keepPart(in.Keep, gen.RunShellCommandInputKeepHead, gen.RunShellCommandInputKeepBoth), in.MaxLines)), nil
}

// WaitForCommand waits for a command run_shell_command typed, or returns
// its stored result if it already ended.
func (h *Handlers) WaitForCommand(ctx context.Context, in gen.WaitForCommandInput) (gen.WaitForCommandOutput, error) {
	if in.CommandID == nil || in.PaneID != nil {
		return h.waitForPaneCommand(ctx, in) // panecommand.go
	}
	c, ok := h.commands.Find(*in.CommandID)
	if !ok {
		return gen.WaitForCommandOutput{}, h.commands.ErrUnknown(*in.CommandID)
	}
	cut := h.cutRequest(keepPart(in.Keep, gen.WaitForCommandInputKeepHead, gen.WaitForCommandInputKeepBoth), in.MaxLines)
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
func (h *Handlers) withOutput(s *live.Stream, out gen.RunShellCommandOutput, textStart int64, text []byte, missed int, c clip.Request) gen.RunShellCommandOutput {
	kept := clip.CutLong(s, textStart, text, c, h.limits.MaxBytes)
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
func (h *Handlers) followCommand(ctx context.Context, c *commandbook.Command, timeoutMs float64, cut clip.Request) gen.RunShellCommandOutput {
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
		// The state before the markers: a stream is dead or failed only
		// after its last output, so an end printed before either is seen.
		// And one look at the markers: the start and end often arrive
		// together, and an end seen without its start would lose the
		// command's output.
		dead, failure := s.State()
		f := commandbook.FrameOf(c)
		if f.Start >= 0 {
			start = f.Start
		}
		if f.Ended {
			return commandbook.OutcomeOf(f.End), start, f.End.Offset, f.End
		}
		if dead {
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

// WaitForExit waits for the program in a pane to end and reports its exit
// status or signal. It works on any pane, holding it open (pane-level
// remain-on-exit) while it waits so that a pane that closes on exit still
// yields its status; a later call keeps waiting where a timed-out one left
// off.
func (h *Handlers) WaitForExit(ctx context.Context, in gen.WaitForExitInput) (gen.WaitForExitOutput, error) {
	pane := tmuxctl.PaneID(in.PaneID)
	w := h.beginWait(ctx, waiting.OrDefault(in.TimeoutMs), "waiting for the program in pane "+string(pane)+" to exit")
	defer w.Done()
	out := gen.WaitForExitOutput{EffectiveTimeoutMs: w.EffectiveMs(), ExitStatus: nil, Signal: nil}

	release, err := h.exits.Hold(ctx, pane, false, false)
	if err != nil {
		var nf *tmuxctl.NotFoundError
		if errors.As(err, &nf) {
			if e, ok := h.exits.Recorded(ctx, pane); ok {
				return completed(out, e), nil
			}
			return out, wording.NotFound(ctx, h.tmux, "pane", string(pane))
		}
		return out, h.explain(ctx, err)
	}
	defer release()
	e, err := h.exits.Wait(w.Ctx, pane)
	switch w.End(err) {
	case waiting.Happened:
		return completed(out, e), nil
	case waiting.Gone:
		out.Outcome = gen.WaitForExitOutputOutcomeGone
		return out, nil
	case waiting.Cancelled:
		out.Outcome = gen.WaitForExitOutputOutcomeCancelled
		return out, nil
	case waiting.TimedOut:
		out.Outcome = gen.WaitForExitOutputOutcomeTimedOut
		return out, nil
	}
	return out, h.explain(ctx, err)
}

func completed(out gen.WaitForExitOutput, e live.Exit) gen.WaitForExitOutput {
	out.Outcome = gen.WaitForExitOutputOutcomeCompleted
	out.ExitStatus = nullableStatus(e.Status)
	out.Signal = e.Signal
	return out
}

// started is a program this server started, already running.
type started struct {
	created tmuxctl.Created
	stream  *live.Stream // the program's output, from its first byte
	release func()       // ends this call's hold on the pane
}

// startProgram makes the program's pane, subscribes to its output and,
// with hold, holds its exit, and only then lets the program run, so its
// first byte is in the stream and (held) its status is never lost.
func (h *Handlers) startProgram(ctx context.Context, where tmuxctl.Placement, spawn tmuxctl.Spawn, keep bool, gate tmuxctl.Gate, hold bool) (started, error) {
	tap := h.hub.PrepareTap()
	where.Pipe = tap.Pipe()
	created, start, err := h.tmux.StartGated(ctx, where, spawn, gate)
	if err != nil {
		tap.Abandon()
		return started{}, h.explain(ctx, err)
	}
	abandon := func(err error) (started, error) {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		h.tmux.KillPane(cctx, created.Pane)
		gate.Abandon()
		return started{}, h.explain(ctx, err)
	}
	s, err := h.hub.WatchCreated(ctx, created, gate, tap)
	if err != nil {
		return abandon(err)
	}
	release := func() {}
	if hold {
		if release, err = h.exits.HoldStarted(ctx, created.Pane, created.PID, keep); err != nil {
			return abandon(err)
		}
	}
	if err := start(ctx); err != nil {
		release()
		return abandon(err)
	}
	return started{created: created, stream: s, release: release}, nil
}

func placement(sessionName *string, split *string, windowName *string, width, height *int) tmuxctl.Placement {
	return tmuxctl.Placement{SessionName: deref(sessionName), Split: tmuxctl.PaneID(deref(split)), WindowName: deref(windowName),
		Width: deref(width), Height: deref(height)}
}

// StartProgram runs argv (no shell) in a new pane and answers as soon as
// it runs, or when it exits within waitMs.
func (h *Handlers) StartProgram(ctx context.Context, in gen.StartProgramInput) (gen.StartProgramOutput, error) {
	if in.SplitPaneID != nil && (in.SessionName != nil || in.WindowName != nil) {
		return gen.StartProgramOutput{}, wording.SplitPlacement(false)
	}
	if in.SplitPaneID != nil && (in.Width != nil || in.Height != nil) {
		return gen.StartProgramOutput{}, wording.SplitPlacement(true)
	}
	// start_program reports the program's own pid, so its shell execs it.
	gate, err := tmuxctl.NewGate(false, "")
	if err != nil {
		return gen.StartProgramOutput{}, err
	}
	st, err := h.startProgram(ctx, placement(in.SessionName, in.SplitPaneID, in.WindowName, in.Width, in.Height),
		tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}, in.KeepPane, gate, true)
	if err != nil {
		return gen.StartProgramOutput{}, err
	}
	defer st.release()
	w := h.beginWait(ctx, float64(in.WaitMs), "waiting for "+in.Argv[0]+" to exit")
	defer w.Done()
	out := gen.StartProgramOutput{
		PaneID:          string(st.created.Pane),
		WindowID:        string(st.created.Window),
		SessionID:       string(st.created.Session),
		Pid:             st.created.PID,
		Running:         true,
		EffectiveWaitMs: w.EffectiveMs(),
	}
	cursor := st.stream.Cursor(0)
	out.Cursor = &cursor
	if w.Effective > 0 {
		// However the wait ends, the program was started: a wait that
		// did not see it end says it is running.
		e, err := h.exits.Wait(w.Ctx, st.created.Pane)
		switch w.End(err) {
		case waiting.Happened:
			out.Running = false
			out.ExitStatus = e.Status
			out.Signal = e.Signal
		case waiting.Gone:
			out.Running = false
		}
	}
	return out, nil
}

// RunProgram runs argv (no shell) in a new pane, waits for it to exit, and
// returns its status and exactly what it printed.
//
// The program's shell prints an exit marker, with the status, after
// everything the program printed, and waits: so the marker read from the
// stream is the whole answer, and the pane is then killed. Only a pane
// that is kept (keepPane), that dies without a marker, or that a call
// leaves running is held for its exit the ordinary way.
func (h *Handlers) RunProgram(ctx context.Context, in gen.RunProgramInput) (gen.RunProgramOutput, error) {
	nonce := tmuxctl.Nonce(12)
	gate, err := tmuxctl.NewGate(true, nonce)
	if err != nil {
		return gen.RunProgramOutput{}, err
	}
	st, err := h.startProgram(ctx, placement(in.SessionName, nil, nil, in.Width, in.Height),
		tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}, in.KeepPane, gate, in.KeepPane)
	if err != nil {
		return gen.RunProgramOutput{}, err
	}
	defer func() { st.release() }()
	w := h.beginWait(ctx, float64(in.TimeoutMs), "running "+in.Argv[0]) // the schema's default applies when omitted
	defer w.Done()
	out := gen.RunProgramOutput{
		PaneID:             string(st.created.Pane),
		EffectiveTimeoutMs: w.EffectiveMs(),
		ExitStatus:         nil,
		Signal:             nil,
	}
	marked := false
	var e live.Exit
	if !in.KeepPane {
		e, marked = h.awaitExitMarker(w, st.stream, nonce)
	}
	var ending waiting.Ending
	switch {
	case marked:
		ending = w.End(nil)
	case !in.KeepPane && w.Ctx.Err() != nil:
		ending = w.End(w.Ctx.Err())
	default:
		// Kept, or ended without its marker (killed, or the stream failed):
		// the exit tracker reads how it ended from tmux.
		if !in.KeepPane {
			if st.release, err = h.exits.HoldStarted(ctx, st.created.Pane, st.created.PID, false); err != nil {
				st.release = func() {}
				var nf *tmuxctl.NotFoundError
				if !errors.As(err, &nf) {
					return gen.RunProgramOutput{}, wording.MayStillRun(h.explain(ctx, err), in.Argv[0], st.created.Pane)
				}
				err = live.ErrPaneGone
			}
		}
		if err == nil {
			e, err = h.exits.Wait(w.Ctx, st.created.Pane)
		}
		ending = w.End(err)
	}
	switch ending {
	case waiting.Happened:
		out.Outcome = gen.RunProgramOutputOutcomeCompleted
		out.ExitStatus = e.Status
		out.Signal = e.Signal
	case waiting.Gone:
		out.Outcome = gen.RunProgramOutputOutcomeGone
	case waiting.Cancelled:
		out.Outcome = gen.RunProgramOutputOutcomeCancelled
	case waiting.TimedOut:
		out.Outcome = gen.RunProgramOutputOutcomeTimedOut // the program runs on in paneId
	default:
		return gen.RunProgramOutput{}, wording.MayStillRun(h.explain(ctx, err), in.Argv[0], st.created.Pane)
	}
	if ending == waiting.Happened || ending == waiting.Gone {
		defer gate.Abandon() // nothing will listen for the ack any more
	}
	if (ending == waiting.Cancelled || ending == waiting.TimedOut) && !in.KeepPane && !marked {
		// The program runs on: from now on the exit tracker holds its
		// pane, so that a later wait still gets its status.
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if release, err := h.exits.HoldStarted(hctx, st.created.Pane, st.created.PID, false); err == nil {
			release() // a started program stays held until it exits
		}
		cancel()
	}
	if out.Outcome == gen.RunProgramOutputOutcomeCompleted && !in.KeepPane {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		err := h.tmux.KillPane(cctx, st.created.Pane)
		var nf *tmuxctl.NotFoundError
		out.PaneClosed = err == nil || marked && errors.As(err, &nf) // a marked shell may have ended already
		if marked {
			h.exits.Remember(st.created.Pane, e, st.created.ServerPID, st.created.PID)
		}
	}
	if out.Outcome == gen.RunProgramOutputOutcomeCompleted && !marked {
		waiting.SyncDeath(ctx, h.hub, st.stream)
	}
	if chunk, err := st.stream.Read(0); err == nil {
		kept := clip.CutLong(st.stream, chunk.TextStart, chunk.Text,
			h.cutRequest(keepPart(in.Keep, gen.RunProgramInputKeepHead, gen.RunProgramInputKeepBoth), in.MaxLines), h.limits.MaxBytes)
		out.Output = kept.Text
		kept.Accounting = kept.Missing(chunk.Missed)
		out = intoRunProgramCut(kept, out)
		cursor := st.stream.Cursor(chunk.End)
		out.Cursor = &cursor
	}
	r := h.cutRequest(clip.Last, in.MaxLines)
	out.EffectiveMaxLines, out.MaxLinesClamped = r.MaxLines, r.Clamped
	return out, nil
}

// awaitExitMarker waits for the exit marker of a program started behind an
// acking gate with nonce. It reports false when the wait ended, or the
// stream died or failed, without one.
func (h *Handlers) awaitExitMarker(w *waiting.Wait, s *live.Stream, nonce string) (live.Exit, bool) {
	watch := w.Watch(h.hub, s.Pane())
	for {
		changed := s.Changed()
		if mk, ok := s.FindMarker(nonce, frame.Exit); ok {
			status, signal := tmuxctl.GatedExit(mk.Status)
			return live.Exit{Status: status, Signal: signal}, true
		}
		if dead, failure := s.State(); dead || failure != "" {
			return live.Exit{}, false
		}
		if !watch.Next(changed, waiting.Forever) {
			return live.Exit{}, false
		}
	}
}
