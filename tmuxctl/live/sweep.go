package live

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// instanceDirPrefix starts the name of every instance's private directory
// in the temporary directory: tmux-mcp-<pid>-<random>.
const instanceDirPrefix = "tmux-mcp-"

// sweep undoes what instances that no longer run left in tmux and in the
// temporary directory. Everything it touches carries a dead process id
// in a mark this package wrote; nothing else is touched.
func (h *Hub) sweep(ctx context.Context) {
	h.sweepDirs()
	panes, err := h.client.ListPanes(ctx, tmuxctl.PaneScope{})
	if err != nil {
		return // no server: nothing of anyone's is left in it
	}
	for _, p := range panes {
		if t, ok := parseTapMark(p.PipeMark); ok {
			if !tapAlive(t) {
				h.sweepTap(ctx, p, t)
			}
		} else if p.PipeMark != "" && !markAlive(p.PipeMark) {
			h.sweepPipe(ctx, p)
		}
		if p.HoldMark != "" {
			if hold, ok := tmuxctl.ParseHold(p.HoldMark); ok && !markAlive(hold.Mark) {
				h.sweepHold(ctx, p, hold)
			}
		}
	}
	h.sweepBuffers(ctx)
	entries, err := h.ops.Hooks(ctx, "pane-died")
	if err != nil {
		return
	}
	for _, e := range entries {
		i := strings.Index(e.Command, deathChannelPrefix)
		if i < 0 {
			continue
		}
		channel := strings.Fields(e.Command[i:])[0]
		channel = strings.Trim(channel, `"'`)
		if pid, ok := deathChannelOwner(channel); ok && !processAlive(pid) {
			h.ops.UnsetHook(ctx, "pane-died", e.Index)
			// Release a listener the dead instance left queued in tmux.
			h.client.Signal(ctx, channel)
		}
	}
}

// sweepPipe closes the pipe of a dead instance's stream. On a dead pane
// tmux 3.4+ keeps the pipe, so the relay recorded in the mark is ended.
func (h *Hub) sweepPipe(ctx context.Context, p tmuxctl.Pane) {
	h.ops.ClosePipe(ctx, p.ID, p.PipeMark)
	if !p.Dead {
		return
	}
	f := strings.Split(p.PipeMark, ".")
	if len(f) == 4 {
		if relay, err := strconv.Atoi(f[3]); err == nil && relay > 1 && p.Piped {
			syscall.Kill(relay, syscall.SIGTERM)
		}
	}
}

// tapAlive reports whether the tap a mark names still runs: its recorded
// pid, or, before it has recorded one, its socket answering or its
// process starting (see tapStarting) — twice asked, a second apart, for
// a tap whose shell tmux has forked but not yet run.
func tapAlive(t tapInfo) bool {
	if t.pid != 0 {
		return processAlive(t.pid)
	}
	for attempt := 0; attempt < 2; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Second)
		}
		if c, err := net.Dial("unix", t.socket); err == nil {
			c.Close()
			return true
		}
		if tapStarting(t) {
			return true
		}
	}
	return false
}

// tapStarting reports whether the tap of t has not listened yet but runs:
// a process whose command line names its socket (the pipe's shell, or
// the tap itself), which a race-built tap on a loaded machine is for a
// second or more. Such a tap's pipe must not be closed, or the instance
// that opened it loses its stream and the next one finds no tap.
func tapStarting(t tapInfo) bool { return proc.Holding(t.socket) != 0 }

// sweepTap closes the pipe of a tap or stream host that died and removes
// its socket and, if it is empty, the taps' directory. A host's socket is
// another host's once one has started: it goes only while no host holds
// the lock (cleanDeadHost).
func (h *Hub) sweepTap(ctx context.Context, p tmuxctl.Pane, t tapInfo) {
	h.ops.ClosePipe(ctx, p.ID, t.baseMark())
	dir := filepath.Dir(t.socket)
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && ownedByMe(fi) {
		if isHostSocket(t.socket) {
			cleanDeadHost(t.socket)
			return
		}
		os.Remove(t.socket)
		os.Remove(dir)
	}
}

// sweepHold puts back the remain-on-exit a dead instance's hold replaced,
// and closes the pane if it died meanwhile and would have closed — unless
// another instance that still runs waits on it too, which the hold then
// passes to.
func (h *Hub) sweepHold(ctx context.Context, p tmuxctl.Pane, hold tmuxctl.Hold) {
	if released, err := h.ops.ReleaseHold(ctx, p.ID, hold, markAlive); err != nil || !released || !p.Dead {
		return
	}
	closeIfWouldHave(ctx, h.ops, p)
}

// closeIfWouldHave closes dead pane p if its own remain-on-exit setting
// would have closed it (as it is now that any hold is released).
func closeIfWouldHave(ctx context.Context, c tmuxctl.LiveOps, p tmuxctl.Pane) {
	v, err := c.PaneValue(ctx, p.ID, "remain-on-exit")
	if err != nil {
		return
	}
	failed := p.ExitSignal != nil || p.ExitStatus != nil && *p.ExitStatus != 0
	if v == "on" || v == "failed" && failed {
		return
	}
	c.KillDeadPane(ctx, p.ID, p.PID)
}

// sweepDirs removes the private directories of instances that no longer
// run.
func (h *Hub) sweepDirs() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), instanceDirPrefix+"[0-9]*"))
	for _, dir := range matches {
		if dir == h.dir {
			continue
		}
		rest := strings.TrimPrefix(filepath.Base(dir), instanceDirPrefix)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && ownedByMe(fi) {
			os.RemoveAll(dir)
		}
	}
}

// markAlive reports whether the instance a mark names ("<pid>.…") still
// runs.
func markAlive(mark string) bool {
	pidText, _, _ := strings.Cut(mark, ".")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false // not a mark we could have written: treat as stale
	}
	return processAlive(pid)
}

// processAlive reports whether a process with this id exists. (A process
// id reused by an unrelated program reads as alive: its marks then stay
// until that program ends, which errs on the side of touching nothing.)
func processAlive(pid int) bool { return proc.Alive(pid) }

// ownedByMe reports whether a file belongs to this user.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
