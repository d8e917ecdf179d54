// This file holds the tools of the catalogue family Programs and their exit
// status (run_shell_command, wait_for_command, start_program, run_program,
// wait_for_exit).

package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/framed"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
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
		(h.execs.stillForked(p) || shellframe.Of(proc.Name(p.PID)) != shellframe.NotShell)
}

// RunShellCommand runs a command line in the shell of a pane and returns
// its exit status and exactly what it printed. The command goes into a
// private file that the shell sources, framed by invisible markers, so
// commands of any size and content work and the typed line is short
// (package framed).
func (h *Handlers) RunShellCommand(ctx context.Context, in gen.RunShellCommandInput) (gen.RunShellCommandOutput, error) {
	req, err := h.shellRequest(ctx, tmuxctl.PaneID(in.PaneID), in.Command, in.Force)
	if err != nil {
		return gen.RunShellCommandOutput{}, err
	}
	c, err := h.commands.Type(ctx, req)
	if err != nil {
		return gen.RunShellCommandOutput{}, err
	}
	w := h.beginWait(ctx, float64(in.TimeoutMs), "running "+c.ID+" in pane "+string(c.Pane)) // the schema's default applies when omitted
	defer w.Done()
	r := h.commands.Follow(ctx, w, c, in.StopForInput)
	cut := h.cutRequest(keepPart(in.Keep, gen.RunShellCommandInputKeepHead, gen.RunShellCommandInputKeepBoth), in.MaxLines)
	return h.commandOutput(c.Stream, r, w.EffectiveMs(), cut), nil
}

// shellRequest checks that pane id can run a command in its shell (or,
// forced, that it exists and is not this server's own), and says how to
// frame it there.
func (h *Handlers) shellRequest(ctx context.Context, id tmuxctl.PaneID, command string, force bool) (framed.Request, error) {
	p, err := h.shellPane(ctx, id, force)
	if err != nil {
		return framed.Request{}, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, force, "run a command in"); err != nil {
		return framed.Request{}, err
	}
	switch {
	case p.Dead:
		return framed.Request{}, wording.PaneDead(p)
	case p.InMode && !force:
		return framed.Request{}, wording.InMode(id, "leave the mode and run the command")
	}
	if err := h.commands.Free(id, force); err != nil {
		return framed.Request{}, err
	}
	r := framed.Request{Pane: id, PID: p.PID, Shell: p.Command, Kind: shellframe.Of(p.Command), Command: command, Force: force, InMode: p.InMode}
	if r.Kind == shellframe.NotShell {
		// The pane's own process may be a shell that is busy, or still
		// starting (its rc file runs a program): forced, the command is
		// typed ahead, in that shell's syntax, and runs when it reads it.
		own := proc.Name(p.PID)
		// A shell still starting is not told apart from a busy one, so
		// both need force. "Its child is in the foreground and it has
		// never shown a prompt" cannot be known: a stream started now
		// has not seen the shell's past (an hour-old shell running vim
		// looks the same), prompts are arbitrary text, and even a shell
		// truly in its rc file may be running a program that reads the
		// terminal (a passphrase prompt, read), which would take the
		// typed line as vim would.
		if !force {
			if shellframe.Of(own) != shellframe.NotShell {
				return framed.Request{}, wording.ShellBusy(id, p.Command, own)
			}
			return framed.Request{}, wording.NotAShell(id, p.Command)
		}
		r.Kind = shellframe.POSIX
		if k := shellframe.Of(own); k != shellframe.NotShell {
			r.Kind, r.Shell = k, own
		}
	}
	return r, nil
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
	return h.waitForOwnCommand(ctx, in, c)
}

// waitForOwnCommand is wait_for_command on command c, which this server
// typed.
func (h *Handlers) waitForOwnCommand(ctx context.Context, in gen.WaitForCommandInput, c *framed.Command) (gen.WaitForCommandOutput, error) {
	cut := h.cutRequest(keepPart(in.Keep, gen.WaitForCommandInputKeepHead, gen.WaitForCommandInputKeepBoth), in.MaxLines)
	var out gen.RunShellCommandOutput
	if r, ended := h.commands.Stored(c); ended {
		// The timeout it would have enforced.
		out = h.commandOutput(c.Stream, r, h.effectiveMs(float64(in.TimeoutMs)), cut)
	} else {
		w := h.beginWait(ctx, float64(in.TimeoutMs), "running "+c.ID+" in pane "+string(c.Pane))
		out = h.commandOutput(c.Stream, h.commands.Follow(ctx, w, c, in.StopForInput), w.EffectiveMs(), cut)
		w.Done()
	}
	var w gen.WaitForCommandOutput
	b, err := json.Marshal(out)
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	return w, err
}

// commandOutput maps what a wait on a framed command found onto
// run_shell_command's output (wait_for_command's is the same), with its
// output cut as the call asks: the one place framed's results meet the
// wire.
func (h *Handlers) commandOutput(s *live.Stream, r framed.Result, effectiveMs int, c clip.Request) gen.RunShellCommandOutput {
	out := gen.RunShellCommandOutput{
		CommandID:          r.ID,
		PaneID:             string(r.Pane),
		Shell:              r.Shell,
		EffectiveTimeoutMs: effectiveMs,
		Outcome:            commandOutcome(r.Outcome),
		State:              commandState(r.State),
		StillRunning:       r.State != framed.Ended,
		ExitStatus:         r.Status,
		Cursor:             r.Cursor,
	}
	if r.Signal != "" {
		sig := r.Signal
		out.Signal = &sig
	}
	if r.Outcome == framed.AwaitingInput {
		out.Prompt, out.Evidence = &r.Asking.Prompt, r.Asking.Evidence
	}
	kept := clip.CutLong(s, r.TextStart, r.Text, c, h.limits.MaxBytes)
	out.Output = kept.Text
	out.OutputComplete = r.Complete && kept.OmittedBytes == 0
	// r counts what the stream lost of the command's output; the cut is
	// this call's own.
	kept.Accounting = kept.Missing(int64(r.Missed))
	return intoRunShellCommandCut(kept, out)
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
	if !gate.Ack {
		// Its output is then copied as it prints, and in the stream
		// before its death is. (A gate that acks needs no wait: its shell
		// waits after the exit marker until the stream has read it.)
		s.AwaitRelay(ctx)
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
	spawn := tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}
	var st started
	var gate tmuxctl.Gate
	var nonce string
	var sp *spare
	ended := false // the program ended, and the call with it
	spareFits := !h.limits.NoSpare && in.SessionName == nil && in.Width == nil && in.Height == nil && !in.KeepPane && tmuxctl.SpareFits(spawn)
	if spareFits {
		// A pane made ahead, in the place this one goes (spare.go).
		var ok bool
		var err error
		if st, sp, ok, err = h.startOnSpare(ctx, spawn); err != nil {
			return gen.RunProgramOutput{}, err
		} else if ok {
			gate, nonce = sp.sp.Gate, sp.sp.Gate.Nonce
			defer func() { h.doneWithSpare(sp, ended) }()
		}
	}
	if sp == nil {
		nonce = tmuxctl.Nonce(12)
		var err error
		if gate, err = tmuxctl.NewGate(true, nonce); err != nil {
			return gen.RunProgramOutput{}, err
		}
		if st, err = h.startProgram(ctx, placement(in.SessionName, nil, nil, in.Width, in.Height), spawn, in.KeepPane, gate, in.KeepPane); err != nil {
			return gen.RunProgramOutput{}, err
		}
	}
	defer func() { st.release() }()
	if spareFits {
		// The next spare is made once this call is done, not beside it
		// (spare.go); a call refused before its program started makes none.
		defer h.refillSpare()
	}
	w := h.beginWait(ctx, float64(in.TimeoutMs), "running "+in.Argv[0]) // the schema's default applies when omitted
	defer w.Done()
	end, err := h.awaitProgram(ctx, w, &st, nonce, in.KeepPane, in.StopForInput)
	if err != nil {
		return gen.RunProgramOutput{}, wording.MayStillRun(err, in.Argv[0], st.created.Pane)
	}
	ended = end.asking == nil && (end.ending == waiting.Happened || end.ending == waiting.Gone)
	if ended {
		defer gate.Abandon() // nothing will listen for the ack any more
	}
	closed := h.settleProgram(ctx, st, end, in.KeepPane)
	out := gen.RunProgramOutput{
		PaneID:             string(st.created.Pane),
		EffectiveTimeoutMs: w.EffectiveMs(),
		Outcome:            programOutcome(end),
		ExitStatus:         nil,
		Signal:             nil,
		PaneClosed:         closed,
	}
	switch {
	case end.asking != nil:
		out.Prompt, out.Evidence = &end.asking.Prompt, end.asking.Evidence
	case end.ending == waiting.Happened:
		out.ExitStatus, out.Signal = end.exit.Status, end.exit.Signal
	}
	keep := h.cutRequest(keepPart(in.Keep, gen.RunProgramInputKeepHead, gen.RunProgramInputKeepBoth), in.MaxLines)
	return h.programOutput(st.stream, out, keep), nil
}

// A programEnd is how a wait on a program run_program started ended.
type programEnd struct {
	ending waiting.Ending
	exit   live.Exit      // how it exited, when it did
	marked bool           // its exit marker was read: its shell waits for the ack
	asking *framed.Asking // it waits for input and runs on; ending is not set
}

// awaitProgram waits within w for program st to exit, or (untilInput)
// to wait for input: for its exit marker, unless its pane is kept; kept,
// or ended without its marker (killed, or the stream failed), the exit
// tracker reads how it ended from tmux, and st.release then ends that
// hold. An error (worded) means the wait could not tell; the program may
// still run.
func (h *Handlers) awaitProgram(ctx context.Context, w *waiting.Wait, st *started, nonce string, keep, untilInput bool) (programEnd, error) {
	var end programEnd
	if keep && untilInput {
		// A kept pane's shell prints the marker too; the exit tracker
		// still reads how it ended.
		if _, _, end.asking = h.commands.AwaitExit(w, st.stream, nonce, true); end.asking != nil {
			return end, nil
		}
	}
	if !keep {
		end.exit, end.marked, end.asking = h.commands.AwaitExit(w, st.stream, nonce, untilInput)
		switch {
		case end.asking != nil:
			return end, nil
		case end.marked:
			end.ending = w.End(nil)
			return end, nil
		case w.Ctx.Err() != nil:
			end.ending = w.End(w.Ctx.Err())
			return end, nil
		}
	}
	var err error
	if !keep {
		if st.release, err = h.exits.HoldStarted(ctx, st.created.Pane, st.created.PID, false); err != nil {
			st.release = func() {}
			var nf *tmuxctl.NotFoundError
			if !errors.As(err, &nf) {
				return end, h.explain(ctx, err)
			}
			err = live.ErrPaneGone
		}
	}
	if err == nil {
		end.exit, err = h.exits.Wait(w.Ctx, st.created.Pane)
	}
	end.ending = w.End(err)
	switch end.ending {
	case waiting.Happened, waiting.Gone, waiting.Cancelled, waiting.TimedOut:
		return end, nil
	}
	return end, h.explain(ctx, err)
}

// settleProgram leaves program st's pane as its end asks: one that runs on
// is held for its exit, so that a later wait still gets its status; one
// that completed is closed unless kept (it reports whether it was), after
// its output is all in the stream.
func (h *Handlers) settleProgram(ctx context.Context, st started, end programEnd, keep bool) (closed bool) {
	runsOn := end.asking != nil || end.ending == waiting.Cancelled || end.ending == waiting.TimedOut
	if runsOn && !keep && !end.marked {
		// The program runs on: from now on the exit tracker holds its
		// pane.
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if release, err := h.exits.HoldStarted(hctx, st.created.Pane, st.created.PID, false); err == nil {
			release() // a started program stays held until it exits
		}
		cancel()
	}
	if runsOn || end.ending != waiting.Happened {
		return false
	}
	if !keep {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		var nf *tmuxctl.NotFoundError
		if end.marked {
			h.exits.Remember(st.created.Pane, end.exit, st.created.ServerPID, st.created.PID)
			// The answer does not wait for tmux to destroy the pane (with
			// utempter, a helper process per pane): a kill written to
			// the server closes it, and every later tmux command waits
			// for the kill's answer (tmuxctl.Client.KillPaneBehind).
			sent, err := h.tmux.KillPaneBehind(cctx, st.created.Pane)
			closed = sent || err == nil || errors.As(err, &nf) // a marked shell may have ended already
		} else {
			err := h.tmux.KillPane(cctx, st.created.Pane)
			closed = err == nil
		}
	}
	if !end.marked {
		waiting.SyncDeath(ctx, h.hub, st.stream)
	}
	return closed
}

// programOutput puts everything program stream s holds in out, cut as
// the call asks.
func (h *Handlers) programOutput(s *live.Stream, out gen.RunProgramOutput, c clip.Request) gen.RunProgramOutput {
	if chunk, err := s.Read(0); err == nil {
		kept := clip.CutLong(s, chunk.TextStart, chunk.Text, c, h.limits.MaxBytes)
		out.Output = kept.Text
		kept.Accounting = kept.Missing(chunk.Missed)
		out = intoRunProgramCut(kept, out)
		cursor := s.Cursor(chunk.End)
		out.Cursor = &cursor
	}
	out.EffectiveMaxLines, out.MaxLinesClamped = c.MaxLines, c.Clamped
	return out
}
