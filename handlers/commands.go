package handlers

import (
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/shellframe"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A commandBook keeps every command run_shell_command typed, by id, and
// which pane each one reserves: a pane is reserved from the moment its
// command is typed until the command is seen to end (a command stopped by
// C-z: until its job is gone), or until a command is forced in. Ended commands keep their result for the hub's exit
// grace after their last call, so wait_for_command can still answer.
type commandBook struct {
	mu    sync.Mutex
	dir   string // private directory of the command files (the hub's)
	grace time.Duration
	now   func() time.Time
	// Ids are cmd.<instance>.<seq>: the instance nonce keeps an id from an
	// earlier run of the server (which an agent may still hold) from
	// naming a command of this one.
	instance string
	seq      int
	byID     map[string]*command
	byPane   map[tmuxctl.PaneID]*command // the newest command typed in each pane
}

// A command is one framed command typed into a pane.
type command struct {
	id      string
	pane    tmuxctl.PaneID
	shell   string
	files   shellframe.Files
	stream  *live.Stream
	typedAt int64  // stream offset where typing began
	release func() // ends the command's hold on its stream (idempotent)
	// Guarded by the book's mu:
	result   *gen.RunShellCommandOutput // set once the command ended, output not filled in
	span     outputSpan                 // where that output lies in the stream
	job      int                        // for suspended: the stopped job's process group, 0 if unknown
	lastCall time.Time
}

func newCommandBook(dir string, grace time.Duration) *commandBook {
	return &commandBook{dir: dir, grace: grace, now: time.Now, instance: tmuxctl.Nonce(4), byID: map[string]*command{}, byPane: map[tmuxctl.PaneID]*command{}}
}

// busy returns the command that still reserves pane p, if any.
func (b *commandBook) busy(p tmuxctl.PaneID) *command {
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
func (c *command) reserves() bool {
	if c.result == nil {
		_, ended := endOf(c)
		dead, failure := c.stream.State()
		// A lost stream can no longer tell: the pane is let go, as a
		// wait on it answers cancelled.
		return !ended && !dead && failure == ""
	}
	return c.result.Outcome == gen.RunShellCommandOutputOutcomeSuspended && jobExists(c.job)
}

func errBusy(c *command) error {
	if c.result != nil {
		return fmt.Errorf("pane %s has the job %s stopped (suspended): resume it with send_keys fg and wait for it with wait_for_text, or end it (send_keys C-c once resumed); the pane is free once the job has ended, or pass force:true to type into it anyway", c.pane, c.id)
	}
	return fmt.Errorf("pane %s is still running %s from run_shell_command; wait for it with wait_for_command, interrupt it with send_keys C-c, or pass force:true to type into it anyway", c.pane, c.id)
}

// add registers a new command for pane p, unless an earlier one still
// reserves it and force is not set. It names the command.
func (b *commandBook) add(c *command, force bool) (*command, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	if old := b.byPane[c.pane]; old != nil && !force && old.reserves() {
		return old, false
	}
	if old := b.byPane[c.pane]; old != nil && old.result == nil {
		// Forced over: the new command holds the stream now. The old
		// one's files stay (its runner still reads them) until the hub's
		// directory goes.
		old.release()
	}
	b.seq++
	c.id = "cmd." + b.instance + "." + strconv.Itoa(b.seq)
	c.lastCall = b.now()
	b.byID[c.id] = c
	b.byPane[c.pane] = c
	return nil, true
}

// errUnknown explains why id names no command: it is from another run of
// the server (its instance part differs), or its result has expired.
func (b *commandBook) errUnknown(id string) error {
	if strings.HasPrefix(id, "cmd."+b.instance+".") {
		return fmt.Errorf("commandId %q is not known (any more): an ended command's result is kept for the exit grace after its last call; the pane itself may still show what it printed (capture_pane)", id)
	}
	return fmt.Errorf("commandId %q is not known to this server: it comes from an earlier server run (the server has restarted since) or another server, and commands of an earlier run are not known; look at the pane itself (capture_pane), and use the commandIds run_shell_command returns from now on", id)
}

// forget drops a command whose line was never typed.
func (b *commandBook) forget(c *command) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.byID, c.id)
	if b.byPane[c.pane] == c {
		delete(b.byPane, c.pane)
	}
	c.files.Remove()
	c.release()
}

// find returns the command named id.
func (b *commandBook) find(id string) (*command, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sweepLocked()
	c, ok := b.byID[id]
	if ok {
		c.lastCall = b.now()
	}
	return c, ok
}

// stored returns a command's result, if it ended, and where its output
// lies in the stream.
func (b *commandBook) stored(c *command) (*gen.RunShellCommandOutput, outputSpan) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c.lastCall = b.now()
	return c.result, c.span
}

// end records a command's final result, from the marker that ended it,
// and where its output lies in the stream; its files go.
func (b *commandBook) end(c *command, out gen.RunShellCommandOutput, span outputSpan, m frame.Marker) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.result == nil {
		c.result, c.span = &out, span
		if m.Kind == frame.Stop {
			c.job, _ = strconv.Atoi(m.Detail)
		}
	}
	c.lastCall = b.now()
	c.files.Remove()
	c.release()
}

// sweepLocked forgets commands whose last call is older than the grace:
// those with a stored result, those that ended with nobody waiting (their
// hold on the stream goes too, so the pane's pipe can close when idle),
// and those another command was forced over. A command still running in
// its pane is kept: it reserves the pane.
func (b *commandBook) sweepLocked() {
	now := b.now()
	for id, c := range b.byID {
		if now.Sub(c.lastCall) <= b.grace {
			continue
		}
		if c.result == nil {
			if b.byPane[c.pane] == c {
				_, ended := endOf(c)
				dead, failure := c.stream.State()
				if !ended && !dead && failure == "" {
					continue
				}
				c.files.Remove()
			}
			c.release()
		}
		delete(b.byID, id)
		if b.byPane[c.pane] == c {
			delete(b.byPane, c.pane)
		}
	}
}
