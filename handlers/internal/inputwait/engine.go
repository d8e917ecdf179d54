package inputwait

import (
	"context"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// Quiet is how long a pane must have printed nothing before a [Watcher]
// judges it. A prompt is printed just before the read that waits for its
// answer, so the wait is there as soon as the output stops; the quiet
// period is for programs that redraw a spinner or a progress bar while
// they poll the terminal (spinners redraw every 80–130 ms), and lets the
// prompt reach tmux's screen before it is read. 300 ms is over twice the
// slowest common spinner frame and keeps the answer well within a second.
const Quiet = 300 * time.Millisecond

// confirmGap is the pause between the two looks of a check that found a
// program waiting: it must still wait, and its CPU time must not move.
const confirmGap = 50 * time.Millisecond

// Rechecks of a pane that was quiet but not waiting back off from
// recheckFirst to recheckMax: a program may start reading without
// printing anything (a prompt printed earlier, then a read).
const (
	recheckFirst = 200 * time.Millisecond
	recheckMax   = time.Second
)

// An Engine judges panes of one tmux server. It is safe for concurrent
// use: it keeps no state between checks.
type Engine struct {
	tmux  *tmuxctl.Client
	facts Facts
}

// New returns an engine reading this OS's facts ([OSFacts]).
func New(c *tmuxctl.Client) *Engine { return NewWithFacts(c, OSFacts()) }

// NewWithFacts returns an engine reading facts from f: tests use it to
// fake an OS, or to take a fact away (a /proc/PID/syscall that cannot be
// read).
func NewWithFacts(c *tmuxctl.Client, f Facts) *Engine { return &Engine{tmux: c, facts: f} }

// A Look is one check's view of the pane: the verdict, and the screen it
// read, for a result's last lines.
type Look struct {
	Verdict
	Screen Screen
}

// Check judges whether the program in pane waits for input now; quiet is
// how long the pane has printed nothing, as the caller's stream knows it
// (negative: unknown). A check that finds it waiting looks again
// confirmGap later and judges that second look, with the CPU time used
// between the two. A missing pane is a [tmuxctl.NotFoundError]; a dead
// one a Look with Dead set.
func (e *Engine) Check(ctx context.Context, pane tmuxctl.PaneID, quiet time.Duration) (Look, error) {
	term, err := e.tmux.Terminal(ctx, pane)
	if err != nil {
		return Look{}, err
	}
	first := e.observe(term, quiet)
	l := judged(first, term)
	if !l.Waiting || l.Dead {
		return l, nil
	}
	t0 := time.Now()
	select {
	case <-time.After(confirmGap):
	case <-ctx.Done():
		return Look{}, ctx.Err()
	}
	if term, err = e.tmux.Terminal(ctx, pane); err != nil {
		return Look{}, err
	}
	second := e.observe(term, quiet+time.Since(t0))
	second.ScreenBefore, second.Between = &first.Screen, time.Since(t0)
	if first.GroupErr == nil {
		second.Before = &first.Group
	}
	return judged(second, term), nil
}

func (e *Engine) observe(term tmuxctl.TerminalLook, quiet time.Duration) Observation {
	o := Observation{TTY: term.TTY, Quiet: quiet, Screen: Screen{Rows: term.Rows,
		CursorX: term.CursorX, CursorY: term.CursorY, Alternate: term.Alternate}}
	if !term.Dead {
		o.Group, o.GroupErr = e.facts.Foreground(term.PID, term.TTY)
	}
	return o
}

func judged(o Observation, term tmuxctl.TerminalLook) Look {
	if term.Dead {
		return Look{Verdict: Verdict{Dead: true, Program: term.Command,
			Evidence: []string{"the pane's program has exited"}}, Screen: o.Screen}
	}
	v := Judge(o)
	if v.Program == "" {
		v.Program = term.Command
	}
	return Look{Verdict: v, Screen: o.Screen}
}

// A Watcher judges one pane repeatedly while a wait goes on: the caller
// tells it of output ([Watcher.Output]), asks when the next check is due
// ([Watcher.Due]) and runs it then ([Watcher.Check]). A pane is judged
// once it has been quiet for [Quiet]; a check that finds it not waiting
// is repeated, backing off to once a second, while it stays quiet. A
// Watcher belongs to one goroutine.
type Watcher struct {
	e          *Engine
	pane       tmuxctl.PaneID
	lastOutput time.Time
	next       time.Time
	backoff    time.Duration
}

// Watch returns a watcher of pane whose quiet period starts now.
func (e *Engine) Watch(pane tmuxctl.PaneID) *Watcher {
	now := time.Now()
	return &Watcher{e: e, pane: pane, lastOutput: now, next: now.Add(Quiet), backoff: recheckFirst}
}

// Output tells w the pane printed: the quiet period starts again.
func (w *Watcher) Output() {
	now := time.Now()
	w.lastOutput, w.next, w.backoff = now, now.Add(Quiet), recheckFirst
}

// Due returns how long until the next check; zero or less means now.
func (w *Watcher) Due() time.Duration { return time.Until(w.next) }

// Check judges the pane now (see [Engine.Check]) and schedules the next
// check. Call it when Due has passed.
func (w *Watcher) Check(ctx context.Context) (Look, error) {
	l, err := w.e.Check(ctx, w.pane, time.Since(w.lastOutput))
	w.next = time.Now().Add(w.backoff)
	w.backoff = min(2*w.backoff, recheckMax)
	return l, err
}

// An Ending is how [Engine.Await] ended.
type Ending struct {
	Look                // the last check: Waiting set when the program waits for input
	End    int64        // the stream offset read up to
	Dead   bool         // the pane died
	Failed live.Failure // the stream ended for good
}

// Await watches stream s from offset from until the pane's program waits
// for input, the pane dies, the stream fails or ctx ends (its error, with
// the last check's look). It
// reads the stream only to know when the pane prints; it keeps no text.
// Callers that need more (the output, a timeout's own outcome, the
// one-second check that a pane still lives) run a [Watcher] in their own
// loop instead.
func (e *Engine) Await(ctx context.Context, s *live.Stream, from int64) (Ending, error) {
	w := e.Watch(s.Pane())
	pos := from
	var last Look
	for {
		changed := s.Changed()
		chunk, err := s.Read(pos)
		if err != nil {
			return Ending{End: pos}, err
		}
		pos = chunk.End
		if len(chunk.Text) > 0 || chunk.Missed > 0 {
			w.Output()
		}
		switch {
		case chunk.Failed != "":
			return Ending{End: pos, Failed: chunk.Failed}, nil
		case chunk.Dead:
			return Ending{End: pos, Dead: true}, nil
		}
		if w.Due() <= 0 {
			l, err := w.Check(ctx)
			if err != nil {
				return Ending{Look: last, End: pos}, err
			}
			last = l
			if l.Waiting || l.Dead {
				return Ending{Look: l, End: pos, Dead: l.Dead}, nil
			}
			continue
		}
		timer := time.NewTimer(w.Due())
		select {
		case <-changed:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return Ending{Look: last, End: pos}, ctx.Err()
		}
		timer.Stop()
	}
}
