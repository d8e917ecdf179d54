package handlers

import (
	"context"
	"errors"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/waiting"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

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
			return out, fmt.Errorf("pane %s not found (existing: %s); it may have closed before this call — list_panes shows the panes that exist", pane, h.existing(ctx, "pane"))
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

// startProgram makes the program's pane, subscribes to its output and
// holds its exit, and only then lets the program run, so its first byte
// is in the stream and its status is never lost.
func (h *Handlers) startProgram(ctx context.Context, where tmuxctl.Placement, spawn tmuxctl.Spawn, keep bool, gate tmuxctl.Gate) (started, error) {
	created, start, err := h.tmux.StartGated(ctx, where, spawn, gate)
	if err != nil {
		return started{}, h.explain(ctx, err)
	}
	abandon := func(err error) (started, error) {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		h.tmux.KillPane(cctx, created.Pane)
		return started{}, h.explain(ctx, err)
	}
	s, err := h.hub.WatchPiped(ctx, created.Pane, gate)
	if err != nil {
		return abandon(err)
	}
	release, err := h.exits.Hold(ctx, created.Pane, true, keep)
	if err != nil {
		return abandon(err)
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
		return gen.StartProgramOutput{}, errors.New("splitPaneId places the program in an existing window; it cannot be combined with sessionName or windowName")
	}
	if in.SplitPaneID != nil && (in.Width != nil || in.Height != nil) {
		return gen.StartProgramOutput{}, errors.New("splitPaneId places the program in an existing window, whose size this call does not change: width and height cannot be combined with it — resize that window (resize_window) or pane (resize_pane) first, or omit splitPaneId for a new window of the size you need")
	}
	// start_program reports the program's own pid, so its shell execs it.
	st, err := h.startProgram(ctx, placement(in.SessionName, in.SplitPaneID, in.WindowName, in.Width, in.Height),
		tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}, in.KeepPane, tmuxctl.Gate{})
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
func (h *Handlers) RunProgram(ctx context.Context, in gen.RunProgramInput) (gen.RunProgramOutput, error) {
	// run_program reports no pid but promises all of the output: its shell
	// stays until the output is read to the end.
	nonce := tmuxctl.Nonce(12)
	st, err := h.startProgram(ctx, placement(in.SessionName, nil, nil, in.Width, in.Height),
		tmuxctl.Spawn{Argv: in.Argv, Cwd: deref(in.Cwd), Env: in.Env}, in.KeepPane,
		tmuxctl.Gate{Ack: true, AckChannel: "tmux-mcp-ack-" + nonce, Nonce: nonce})
	if err != nil {
		return gen.RunProgramOutput{}, err
	}
	defer st.release()
	w := h.beginWait(ctx, float64(in.TimeoutMs), "running "+in.Argv[0]) // the schema's default applies when omitted
	defer w.Done()
	out := gen.RunProgramOutput{
		PaneID:             string(st.created.Pane),
		EffectiveTimeoutMs: w.EffectiveMs(),
		ExitStatus:         nil,
		Signal:             nil,
	}
	e, err := h.exits.Wait(w.Ctx, st.created.Pane)
	switch w.End(err) {
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
		return gen.RunProgramOutput{}, fmt.Errorf("%w; %s may still be running in pane %s", h.explain(ctx, err), in.Argv[0], st.created.Pane)
	}
	if out.Outcome == gen.RunProgramOutputOutcomeCompleted && !in.KeepPane {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		out.PaneClosed = h.tmux.KillPane(cctx, st.created.Pane) == nil
	}
	if out.Outcome == gen.RunProgramOutputOutcomeCompleted {
		waiting.SyncDeath(ctx, h.hub, st.stream)
	}
	if chunk, err := st.stream.Read(0); err == nil {
		kept := h.cut(st.stream, chunk.TextStart, chunk.Text,
			outputCut{keepPart(in.Keep, gen.RunProgramInputKeepHead, gen.RunProgramInputKeepBoth), in.MaxLines})
		out.Output = kept.Text
		kept.Accounting = kept.Missing(chunk.Missed)
		out = intoRunProgramCut(kept, out)
		cursor := st.stream.Cursor(chunk.End)
		out.Cursor = &cursor
	}
	out.EffectiveMaxLines, out.MaxLinesClamped = h.lineLimit(in.MaxLines)
	return out, nil
}
