package framed

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/inputwait"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellframe"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A Book types framed commands into panes' shells and keeps every one it
// typed, by id, and which pane each one reserves: a pane is reserved from
// the moment its command is typed until the command is seen to end (a
// command stopped by C-z: until its job is gone), or until a command is
// forced in. Ended commands keep their result for the hub's exit grace
// after their last call, so wait_for_command can still answer.
type Book struct {
	tmux  *tmuxctl.Client
	hub   *live.Hub
	echo  *echo.Book        // told of every line typed, for waits to discount
	input *inputwait.Engine // says whether a command waits for input
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
	result   *Result    // set once the command ended, with no text
	span     outputSpan // where its output lies in the stream
	job      int        // for suspended: the stopped job's process group, 0 if unknown
	lastCall time.Time
}

// New returns an empty book that types with client, follows commands in
// hub's streams (its command files go in the hub's private directory, and
// ended commands are kept for its exit grace after their last call),
// tells echoes of every typed line and asks input whether a command waits
// for input.
func New(client *tmuxctl.Client, hub *live.Hub, echoes *echo.Book, input *inputwait.Engine) *Book {
	b := newBook(hub.Dir(), hub.ExitGrace())
	b.tmux, b.hub, b.echo, b.input = client, hub, echoes, input
	return b
}

// newBook returns an empty book whose command files go in dir and whose
// ended commands are kept for grace after their last call.
func newBook(dir string, grace time.Duration) *Book {
	return &Book{dir: dir, grace: grace, now: time.Now, instance: tmuxctl.Nonce(4), byID: map[string]*Command{}, byPane: map[tmuxctl.PaneID]*Command{}}
}

// Free refuses pane p, unless force, while a command of this book still
// reserves it; the error names that command.
func (b *Book) Free(p tmuxctl.PaneID, force bool) error {
	if force {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.byPane[p]; c != nil && c.reserves() {
		return errBusy(c)
	}
	return nil
}

// reserves reports whether c still keeps its pane: it has not been seen
// to end, or it was suspended and its stopped job still exists (resumed
// with fg, it runs in the pane until it ends). Called with the book's mu.
func (c *Command) reserves() bool {
	if c.result == nil {
		ended := c.frame().Ended
		dead, failure := c.Stream.State()
		// A lost stream can no longer tell: the pane is let go, as a
		// wait on it answers cancelled.
		return !ended && !dead && failure == ""
	}
	return c.result.Outcome == Suspended && jobExists(c.job)
}

// errBusy says that c reserves its pane. Called with the book's mu.
func errBusy(c *Command) error {
	if c.result != nil {
		return wording.CommandBusy(c.Pane, c.ID, true)
	}
	return wording.CommandBusy(c.Pane, c.ID, false)
}

// add registers a new command for its pane, unless an earlier one still
// reserves it and force is not set. It names the command.
func (b *Book) add(c *Command, force bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if old := b.byPane[c.Pane]; old != nil && !force && old.reserves() {
		return errBusy(old)
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
	return nil
}

// ErrUnknown explains why id names no command: it is from another run of
// the server (its instance part differs), or its result has expired.
func (b *Book) ErrUnknown(id string) error {
	if strings.HasPrefix(id, "cmd."+b.instance+".") {
		return wording.UnknownCommand(id, true)
	}
	return wording.UnknownCommand(id, false)
}

// forget drops a command whose line was never typed.
func (b *Book) forget(c *Command) {
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

// InPane returns the newest command typed in pane p that the book still
// keeps, and whether it still runs there.
func (b *Book) InPane(p tmuxctl.PaneID) (c *Command, running bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if c = b.byPane[p]; c == nil {
		return nil, false
	}
	c.lastCall = b.now()
	return c, c.result == nil && c.reserves()
}

// Stored returns the result of command c if it ended, with its output
// read from the stream again: output the stream's buffer has dropped since
// counts as missed.
func (b *Book) Stored(c *Command) (Result, bool) {
	b.mu.Lock()
	c.lastCall = b.now()
	stored, span := c.result, c.span
	b.mu.Unlock()
	if stored == nil {
		return Result{}, false
	}
	r := *stored
	var missed int
	r.TextStart, r.Text, missed = readSpan(c.Stream, span)
	r.Missed += missed
	r.Complete = r.Complete && missed == 0
	return r, true
}

// end records a command's final result (its text left out), from the
// marker that ended it, and where its output lies in the stream; its
// files go.
func (b *Book) end(c *Command, r Result, span outputSpan, m frame.Marker) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.result == nil {
		r.Text = nil
		c.result, c.span = &r, span
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
				ended := c.frame().Ended
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

// jobExists reports whether the process group pgid (a shell's stopped
// job) still has a live process. tmux and this server share the machine
// (they talk over a Unix socket), so the pane's processes are visible
// here. An unknown group (0) counts as existing: the pane stays reserved
// until force. A killed job's leader lingers as a zombie until its shell
// reaps it; where /proc says so (Linux), that counts as gone.
func jobExists(pgid int) bool { return proc.GroupAlive(pgid) }
