package framed

import (
	"context"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/inputwait"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// An Asking is what showed that a program waits for terminal input.
type Asking struct {
	Prompt   string   // the question as the screen shows it; "" when none shows
	Evidence []string // the facts the judgement rests on, strongest first
}

// An asker watches, while a wait follows a stream, whether the pane's
// program waits for input (package inputwait's judgement, made once the
// pane has been quiet for inputwait.Quiet). A nil asker never asks.
type asker struct {
	w    *inputwait.Watcher
	s    *live.Stream
	seen int64 // the stream's end at the last look
	late int   // looks that found the screen ahead of the stream
}

// lateLooks bounds the looks that may find the screen showing a question
// the stream has not brought yet: on a loaded machine a pane's relay can
// lag tmux's screen by more than the quiet period, and a result whose
// output lacked the question would tell the agent nothing. A question
// that never reaches the stream (one the filter reads differently) is
// answered at the next look after these, a second later at most.
const lateLooks = 3

// streamTail is how much of the stream's newest text a look compares
// with the screen.
const streamTail = 1 << 10

// asker returns an asker for stream s, or nil when on is false or the
// book has no input engine.
func (b *Book) asker(s *live.Stream, on bool) *asker {
	if !on || b.input == nil {
		return nil
	}
	return &asker{w: b.input.Watch(s.Pane()), s: s, seen: s.End()}
}

// asks judges the pane when a judgement is due and reports whether its
// program waits for input. A failed look (the pane gone, the wait over)
// is no answer: the stream tells the rest.
func (a *asker) asks(ctx context.Context) (Asking, bool) {
	if a == nil {
		return Asking{}, false
	}
	if end := a.s.End(); end != a.seen {
		a.seen = end
		a.w.Output()
	}
	if a.w.Due() > 0 {
		return Asking{}, false
	}
	l, err := a.w.Check(ctx)
	if err != nil || !l.Waiting || l.Dead {
		return Asking{}, false
	}
	if a.late < lateLooks {
		tail, err := a.s.Read(max(a.s.End()-streamTail, 0))
		if err == nil && !l.Screen.InStream(tail.Text) {
			a.late++
			a.w.Output() // the question is on its way: judge once it is here
			return Asking{}, false
		}
	}
	return Asking{Prompt: l.Prompt, Evidence: l.Evidence}, true
}

// left is how long a wait may sleep before the next judgement is due.
func (a *asker) left() time.Duration {
	if a == nil {
		return waiting.Forever
	}
	return max(a.w.Due(), 0)
}
