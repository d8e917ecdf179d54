package live

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// A shell that marks its prompts (OSC 133, package frame) tells the stream
// where each command typed at it began and ended, and its status, whoever
// typed it. The stream keeps the command running now and the last one
// that ended, apart from its frame markers, so that prompts never push
// the markers of a framed command out.

// A ShellCommand is one command a marking shell ran: its output is the
// stream's text from Start to End.
type ShellCommand struct {
	Seq    int64 // 1 for the stream's first marked command, then 2, …
	Start  int64 // offset where its output starts (its C mark)
	End    int64 // offset of its D mark; -1 while it runs
	Status int   // its exit status; frame.NoStatus while it runs or when the shell did not say
}

// Ended reports whether the command has ended.
func (c ShellCommand) Ended() bool { return c.End >= 0 }

// ShellState is what a stream knows from the shell's marks.
type ShellState struct {
	Marked  bool          // the stream has seen a shell mark
	Running *ShellCommand // the command running now, if any
	Last    *ShellCommand // the last command that ended, if any
	Seq     int64         // how many marked commands began
	Dead    bool          // the pane's program ended or the pane closed
}

// Activity says what the pane does, as far as the marks and its death
// tell: "dead", "running" (a marked command runs), "prompt" (the shell
// waits at its prompt), or "" when the shell marks nothing.
func (st ShellState) Activity() string {
	switch {
	case st.Dead:
		return "dead"
	case !st.Marked:
		return ""
	case st.Running != nil:
		return "running"
	}
	return "prompt"
}

// shellTracker follows a stream's shell marks; the stream's mu guards it.
type shellTracker struct {
	marked  bool
	seq     int64
	running *ShellCommand
	last    *ShellCommand
	recent  []ShellCommand // the last few that ended, oldest first
}

// shellRecent is how many ended commands a stream remembers, so that a
// wait that looks after two quick commands ended still finds the first.
const shellRecent = 8

// note applies mark m, which stood at offset m.Offset.
func (t *shellTracker) note(m frame.Marker) {
	t.marked = true
	switch m.Kind {
	case frame.OutputStart:
		t.end(m.Offset, frame.NoStatus) // a C with no D: the shell did not say
		t.seq++
		t.running = &ShellCommand{Seq: t.seq, Start: m.Offset, End: -1, Status: frame.NoStatus}
	case frame.CommandEnd:
		t.end(m.Offset, m.Status)
	case frame.PromptStart:
		// A prompt with a command still open: the shell printed no D
		// (an integration that marks D only for some commands).
		t.end(m.Offset, frame.NoStatus)
	}
}

func (t *shellTracker) end(off int64, status int) {
	if t.running == nil {
		return // a D for an empty command line
	}
	c := *t.running
	c.End, c.Status = off, status
	t.last, t.running = &c, nil
	if len(t.recent) == shellRecent {
		t.recent = t.recent[1:]
	}
	t.recent = append(t.recent, c)
}

// ShellCommand returns marked command seq, running or among the last few
// that ended.
func (s *Stream) ShellCommand(seq int64) (ShellCommand, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.shell.running; c != nil && c.Seq == seq {
		return *c, true
	}
	for _, c := range s.shell.recent {
		if c.Seq == seq {
			return c, true
		}
	}
	return ShellCommand{}, false
}

// Shell returns what the stream knows from the shell's marks.
func (s *Stream) Shell() ShellState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := ShellState{Marked: s.shell.marked, Seq: s.shell.seq, Dead: s.dead}
	if c := s.shell.running; c != nil {
		cc := *c
		st.Running = &cc
	}
	if c := s.shell.last; c != nil {
		cc := *c
		st.Last = &cc
	}
	return st
}

// keepMarkerLocked records marker m, which stood at m.Offset: a shell mark
// in the shell tracker too. The most recent 64 are kept for FindMarker,
// Markers and the readers of a tap.
func (s *Stream) keepMarkerLocked(m frame.Marker) {
	if m.IsShell() {
		s.shell.note(m)
	}
	if len(s.markers) == 64 {
		// Forget the oldest shell mark before any frame marker, which a
		// framed command's wait may still look for.
		drop := 0
		for i, old := range s.markers {
			if old.IsShell() {
				drop = i
				break
			}
		}
		s.markers = append(s.markers[:drop], s.markers[drop+1:]...)
	}
	s.markers = append(s.markers, m)
	s.markerSeq++
}

// Sync waits until a stream fed by a tap has everything the tap held when
// asked, its markers included (a stream just joined has the text, but the
// markers that follow it may still be on their way). A stream this
// instance reads from its own pipe has nothing to wait for.
func (s *Stream) Sync(ctx context.Context) { s.syncTap(ctx) }

// Watching returns the stream of pane p if this hub watches it, else nil.
// It starts nothing.
func (h *Hub) Watching(p tmuxctl.PaneID) *Stream { return h.stream(p) }
