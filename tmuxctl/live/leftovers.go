package live

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
)

// Leftovers are the marks instances that no longer run left in a tmux
// server and in the temporary directory: what the next hub's sweep would
// undo. Found without changing anything, for `tmux-mcp doctor`.
type Leftovers struct {
	Pipes   []tmuxctl.PaneID // panes still piped to a dead instance's stream
	Holds   []tmuxctl.PaneID // panes whose remain-on-exit a dead instance still holds
	Hooks   int              // pane-died hook entries of dead instances
	Buffers []string         // private paste buffers of dead instances
	Dirs    []string         // private directories of dead instances
}

// Empty reports whether nothing was left.
func (l Leftovers) Empty() bool {
	return len(l.Pipes)+len(l.Holds)+l.Hooks+len(l.Buffers)+len(l.Dirs) == 0
}

// FindLeftovers looks for leftovers on c's server, read-only: it uses the
// same marks and liveness test as the sweep, and touches nothing. With no
// server running only the directories are reported.
func FindLeftovers(ctx context.Context, c *tmuxctl.Client) Leftovers {
	var l Leftovers
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), instanceDirPrefix+"[0-9]*"))
	for _, dir := range matches {
		rest := strings.TrimPrefix(filepath.Base(dir), instanceDirPrefix)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && ownedByMe(fi) {
			l.Dirs = append(l.Dirs, dir)
		}
	}
	panes, err := c.ListPanes(ctx, tmuxctl.PaneScope{})
	if err != nil {
		return l
	}
	for _, p := range panes {
		if t, ok := parseTapMark(p.PipeMark); ok {
			if !tapAlive(t) { // a stream host's or tap's: the sweep's test
				l.Pipes = append(l.Pipes, p.ID)
			}
		} else if p.PipeMark != "" && !markAlive(p.PipeMark) {
			l.Pipes = append(l.Pipes, p.ID)
		}
		if p.HoldMark != "" {
			if hold, ok := tmuxctl.ParseHold(p.HoldMark); ok && !markAlive(hold.Mark) {
				l.Holds = append(l.Holds, p.ID)
			}
		}
	}
	if bufs, err := c.ListBuffers(ctx); err == nil {
		for _, b := range bufs {
			if pid, ok := tmuxctl.PasteBufferOwner(b.Name); ok && !processAlive(pid) {
				l.Buffers = append(l.Buffers, b.Name)
			}
		}
	}
	if entries, err := c.LiveOps(livekey.Key{}).Hooks(ctx, "pane-died"); err == nil {
		for _, e := range entries {
			i := strings.Index(e.Command, deathChannelPrefix)
			if i < 0 {
				continue
			}
			channel := strings.Trim(strings.Fields(e.Command[i:])[0], `"'`)
			if pid, ok := deathChannelOwner(channel); ok && !processAlive(pid) {
				l.Hooks++
			}
		}
	}
	return l
}
