package commandbook

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A Book keeps every command run_shell_command typed, by id, and
// which pane each one reserves: a pane is reserved from the moment its
// command is typed until the command is seen to end (a command stopped by
// C-z: until its job is gone), or until a command is forced in. Ended commands keep their result for the hub's exit
// grace after their last call, so wait_for_command can still answer.
type Book struct {
	mu    sync.Mutex
	dir   string // private directory of the command files (the hub's)
	grace time.Duration
	now   func() time.Time
	// Ids are cmd.<instance>.<seq>: the instance nonce keeps an id from an
	// earlier run of the server (which an agent may still hold) from
	// naming a command of this one.
	instance string
	seq      int
	byID     map[string]*Command
	byPane   map[tmuxctl.PaneID]*Command // the newest command typed in each pane
}

// A Command is one framed command typed into a pane.
type Command struct {
	ID      string // set by Add
	Pane    tmuxctl.PaneID
	Shell   string
	Files   shellframe.Files
	Stream  *live.Stream
	TypedAt int64  // stream offset where typing began
	Release func() // ends the command's hold on its stream (idempotent)
	// Guarded by the book's mu:
	result   *gen.RunShellCommandOutput // set once the command ended, output not filled in
	span     Span                       // where that output lies in the stream
	job      int                        // for suspended: the stopped job's process group, 0 if unknown
	lastCall time.Time
}

// New returns an empty book whose command files go in dir and whose
// ended commands are kept for grace after their last call.
func New(dir string, grace time.Duration) *Book {
	return &Book{dir: dir, grace: grace, now: time.Now, instance: tmuxctl.Nonce(4), byID: map[string]*Command{}, byPane: map[tmuxctl.PaneID]*Command{}}
}

// Busy returns the command that still reserves pane p, if any.
func (b *Book) Busy(p tmuxctl.PaneID) *Command {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.byPane[p]
	if c == nil {
		return nil
	}
	if c.reserves() {
		return c
	}
	return nil
}

// reserves reports whether c still keeps its pane: it has not been seen
// to end, or it was suspended and its stopped job still exists (resumed
// with fg, it runs in the pane until it ends). Called with the book's mu.
func (c *Command) reserves() bool {
	if c.result == nil {
		ended := FrameOf(c).Ended
		dead, failure := c.Stream.State()
		// A lost stream can no longer tell: the pane is let go, as a
		// wait on it answers cancelled.
		return !ended && !dead && failure == ""
	}
	return c.result.Outcome == gen.RunShellCommandOutputOutcomeSuspended && jobExists(c.job)
}

func ErrBusy(c *Command) error {
	if c.result != nil {
		return wording.CommandBusy(c.Pane, c.ID, true)
	}
	return wording.CommandBusy(c.Pane, c.ID, false)
}

// Add registers a new command for pane p, unless an earlier one still
// reserves it and force is not set. It names the command.
func (b *Book) Add(c *Command, force bool) (*Command, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if old := b.byPane[c.Pane]; old != nil && !force && old.reserves() {
		return old, false
	}
	if old := b.byPane[c.Pane]; old != nil && old.result == nil {
		// Forced over: the new command holds the stream now. The old
		// one's files stay (its runner still reads them) until the hub's
		// directory goes.
		old.Release()
	}
	b.seq++
	c.ID = "cmd." + b.instance + "." + strconv.Itoa(b.seq)
	c.lastCall = b.now()
	b.byID[c.ID] = c
	b.byPane[c.Pane] = c
	return nil, true
}

// ErrUnknown explains why id names no command: it is from another run of
// the server (its instance part differs), or its result has expired.
func (b *Book) ErrUnknown(id string) error {
	if strings.HasPrefix(id, "cmd."+b.instance+".") {
		return wording.UnknownCommand(id, true)
	}
	return wording.UnknownCommand(id, false)
}

// Forget drops a command whose line was never typed.
func (b *Book) Forget(c *Command) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.byID, c.ID)
	if b.byPane[c.Pane] == c {
		delete(b.byPane, c.Pane)
	}
	c.Files.Remove()
	c.Release()
}

// Find returns the command named id.
func (b *Book) Find(id string) (*Command, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	c, ok := b.byID[id]
	if ok {
		c.lastCall = b.now()
	}
	return c, ok
}

// Dir is the private directory the command files go in.
func (b *Book) Dir() string { return b.dir }

// Stored returns a command's result, if it ended, and where its output
// lies in the stream.
func (b *Book) Stored(c *Command) (*gen.RunShellCommandOutput, Span) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c.lastCall = b.now()
	return c.result, c.span
}

// End records a command's final result, from the marker that ended it,
// and where its output lies in the stream; its files go.
func (b *Book) End(c *Command, out gen.RunShellCommandOutput, span Span, m frame.Marker) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.result == nil {
		c.result, c.span = &out, span
		if m.Kind == frame.Stop {
			c.job, _ = strconv.Atoi(m.Detail)
		}
	}
	c.lastCall = b.now()
	c.Files.Remove()
	c.Release()
}

// sweepLocked forgets commands whose last call is older than the grace:
// those with a stored result, those that ended with nobody waiting (their
// hold on the stream goes too, so the pane's pipe can close when idle),
// and those another command was forced over. A command still running in
// its pane is kept: it reserves the pane.
func (b *Book) sweepLocked() {
	now := b.now()
	for id, c := range b.byID {
		if now.Sub(c.lastCall) <= b.grace {
			continue
		}
		if c.result == nil {
			if b.byPane[c.Pane] == c {
				ended := FrameOf(c).Ended
				dead, failure := c.Stream.State()
				if !ended && !dead && failure == "" {
					continue
				}
				c.Files.Remove()
			}
			c.Release()
		}
		delete(b.byID, id)
		if b.byPane[c.Pane] == c {
			delete(b.byPane, c.Pane)
		}
	}
}

// A Frame is what command c's stream has shown of the markers its runner
// prints: where the command's output starts, and how it ended.
type Frame struct {
	Start int64        // stream offset of the start marker; -1 when not seen
	End   frame.Marker // the marker that ended it, when Ended
	Ended bool
}

// FrameOf reads command c's frame from its stream in one look at its
// markers, so that an end is never seen without the start printed before
// it: the runner's start and end markers often arrive in one read, and
// looking for each in turn could find the end with the start, which came
// with it just after the first look, missed (the command then seemed to
// have ended without output, and its output to be incomplete).
func FrameOf(c *Command) Frame { return frameOf(c.Stream.Markers(c.Files.Nonce)) }

// frameOf reads a frame from one command's markers, oldest first. The
// marker that ended it is End, else Abort when the shell abandoned it,
// else Stop when its program was stopped and left as a job.
func frameOf(markers []frame.Marker) Frame {
	f := Frame{Start: -1}
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

// OutcomeOf reads the marker that ended a command.
func OutcomeOf(m frame.Marker) gen.RunShellCommandOutputOutcome {
	switch {
	case m.Kind == frame.Abort:
		return gen.RunShellCommandOutputOutcomeInterrupted
	case m.Kind == frame.Stop, shellframe.IsStopStatus(m.Status):
		return gen.RunShellCommandOutputOutcomeSuspended
	case SignalOf(m) != "":
		return gen.RunShellCommandOutputOutcomeInterrupted
	}
	return gen.RunShellCommandOutputOutcomeCompleted
}

// SignalOf names the signal that ended a command, when known: the one the
// runner caught, or the one its status encodes — 128+n in most shells,
// 256+n in ksh93 — where n is a signal (1 to 64).
func SignalOf(m frame.Marker) string {
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

// An Span is where a command's output lies in its pane's stream.
type Span struct {
	From, To int64
	OK       bool // false: no output was read (the command had not started)
}

// ReadSpan reads span from s again (nothing when it is not ok). Output the
// stream's buffer has dropped since is counted in missed.
func ReadSpan(s *live.Stream, span Span) (textStart int64, text []byte, missed int) {
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

// jobExists reports whether the process group pgid (a shell's stopped
// job) still has a live process. tmux and this server share the machine
// (they talk over a Unix socket), so the pane's processes are visible
// here. An unknown group (0) counts as existing: the pane stays reserved
// until force. A killed job's leader lingers as a zombie until its shell
// reaps it; where /proc says so (Linux), that counts as gone.
func jobExists(pgid int) bool { return proc.GroupAlive(pgid) }
