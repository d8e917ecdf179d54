package framed

import (
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A markedFrame is what a command's stream has shown of the markers its
// runner prints: where the command's output starts, and how it ended.
type markedFrame struct {
	Start int64        // stream offset of the start marker; -1 when not seen
	End   frame.Marker // the marker that ended it, when Ended
	Ended bool
}

// frame reads command c's frame from its stream in one look at its
// markers, so that an end is never seen without the start printed before
// it: the runner's start and end markers often arrive in one read, and
// looking for each in turn could find the end with the start, which came
// with it just after the first look, missed (the command then seemed to
// have ended without output, and its output to be incomplete).
func (c *Command) frame() markedFrame { return frameOf(c.Stream.Markers(c.Files.Nonce)) }

// frameOf reads a frame from one command's markers, oldest first. The
// marker that ended it is End, else Abort when the shell abandoned it,
// else Stop when its program was stopped and left as a job.
func frameOf(markers []frame.Marker) markedFrame {
	f := markedFrame{Start: -1}
	rank := 0 // of the ending marker found so far: 3 End, 2 Abort, 1 Stop
	for _, m := range markers {
		r := 0
		switch m.Kind {
		case frame.Start:
			if f.Start < 0 {
				f.Start = m.Offset
			}
		case frame.End:
			r = 3
		case frame.Abort:
			r = 2
		case frame.Stop:
			r = 1
		}
		if r > rank {
			rank, f.End, f.Ended = r, m, true
		}
	}
	return f
}

// outcomeOf reads the marker that ended a command.
func outcomeOf(m frame.Marker) Outcome {
	switch {
	case m.Kind == frame.Abort:
		return Interrupted
	case m.Kind == frame.Stop, shellframe.IsStopStatus(m.Status):
		return Suspended
	case signalOf(m) != "":
		return Interrupted
	}
	return Completed
}

// signalOf names the signal that ended a command, when known: the one the
// runner caught, or the one its status encodes — 128+n in most shells,
// 256+n in ksh93 — where n is a signal (1 to 64).
func signalOf(m frame.Marker) string {
	if m.Kind == frame.Abort && m.Detail != "" {
		return "SIG" + m.Detail
	}
	if shellframe.IsStopStatus(m.Status) {
		return tmuxctl.SignalName(m.Status - 128)
	}
	for _, base := range []int{256, 128} {
		if n := m.Status - base; n >= 1 && n <= 64 {
			return tmuxctl.SignalName(n)
		}
	}
	return ""
}

// An outputSpan is where a command's output lies in its pane's stream.
type outputSpan struct {
	From, To int64
	OK       bool // false: no output was read (the command had not started)
}

// readSpan reads span from s again (nothing when it is not ok). Output the
// stream's buffer has dropped since is counted in missed.
func readSpan(s *live.Stream, span outputSpan) (textStart int64, text []byte, missed int) {
	if !span.OK {
		return 0, nil, 0
	}
	chunk, err := s.Read(span.From)
	if err != nil {
		return span.To, nil, int(span.To - span.From)
	}
	textStart = min(chunk.TextStart, span.To)
	text = chunk.Text[:min(int64(len(chunk.Text)), span.To-textStart)]
	return textStart, text, int(textStart - span.From)
}
