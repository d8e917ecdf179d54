package live

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// deathChannelPrefix starts the name of every hub's death channel; the
// process id that follows lets a later instance tell a dead hub's hook
// entry from a live one's.
const deathChannelPrefix = "tmux-mcp-died-"

// A deathListener is this hub's entry in the global pane-died hook array
// and the tmux wait-for child that waits on the channel it signals. tmux
// runs pane-died only for a pane that stays open after its program ends
// (remain-on-exit), which no pipe reports, so this is how such deaths are
// heard at once. It is one entry at an index of its own, so the user's
// own hooks keep running (a pane-level entry would hide the global ones).
type deathListener struct {
	hub     *Hub
	index   int
	channel string

	mu       sync.Mutex
	stopping bool
	cancel   context.CancelFunc
	ended    chan struct{}
}

// listenForDeaths installs the death listener if none runs. It does
// nothing in read-only mode, where waiters ask tmux instead.
func (h *Hub) listenForDeaths(ctx context.Context) {
	if h.opts.ReadOnly {
		return
	}
	h.mu.Lock()
	if h.listener != nil || h.closed {
		h.mu.Unlock()
		return
	}
	l := &deathListener{
		hub:     h,
		index:   10000 + rand.IntN(90000),
		channel: deathChannelPrefix + strconv.Itoa(os.Getpid()) + "-" + tmuxctl.Nonce(6),
		ended:   make(chan struct{}),
	}
	h.listener = l
	h.mu.Unlock()
	if entries, err := h.ops.Hooks(ctx, "pane-died"); err == nil {
		used := map[int]bool{}
		for _, e := range entries {
			used[e.Index] = true
		}
		for used[l.index] {
			l.index = 10000 + rand.IntN(90000)
		}
	}
	if err := h.ops.SetHook(ctx, "pane-died", l.index, l.channel); err != nil {
		h.mu.Lock()
		h.listener = nil
		h.mu.Unlock()
		close(l.ended)
		return
	}
	lctx, cancel := context.WithCancel(h.ctx)
	l.cancel = cancel
	h.goFunc(func() { l.run(lctx) })
}

// run waits on the channel until the listener stops, checking the panes
// after every signal. If the tmux server goes away it ends, and the next
// watch or hold installs a new one.
func (l *deathListener) run(ctx context.Context) {
	defer close(l.ended)
	h := l.hub
	for {
		// Wake, not WaitFor: checkDeaths asks tmux next, and finds a server
		// that went away there.
		err := h.client.Wake(ctx, l.channel)
		l.mu.Lock()
		stopping := l.stopping
		l.mu.Unlock()
		if stopping || ctx.Err() != nil {
			return
		}
		if err != nil {
			h.mu.Lock()
			if h.listener == l {
				h.listener = nil
			}
			h.mu.Unlock()
			return
		}
		if errors.Is(h.checkDeaths(), tmuxctl.ErrServerGone) {
			h.mu.Lock()
			if h.listener == l {
				h.listener = nil
			}
			h.mu.Unlock()
			return
		}
	}
}

// stop removes the hook entry and ends the listener by signalling its own
// channel: a killed wait-for client would stay queued in tmux as a waiter.
func (l *deathListener) stop(ctx context.Context) {
	l.mu.Lock()
	l.stopping = true
	l.mu.Unlock()
	h := l.hub
	h.ops.UnsetHook(ctx, "pane-died", l.index)
	if h.client.Signal(ctx, l.channel) == nil {
		select {
		case <-l.ended:
			return
		case <-time.After(listenerStopGrace):
		}
	}
	if l.cancel != nil {
		l.cancel()
	}
	<-l.ended
}

// checkDeaths looks at every pane once and handles the dead ones that are
// watched or held.
// It returns [tmuxctl.ErrServerGone] when no server answers.
func (h *Hub) checkDeaths() error {
	ctx, cancel := context.WithTimeout(h.ctx, stepTimeout)
	defer cancel()
	panes, err := h.client.ListPanes(ctx, tmuxctl.PaneScope{})
	if err != nil {
		return err
	}
	if len(panes) == 0 && !h.client.ServerRuns(ctx) {
		return tmuxctl.ErrServerGone
	}
	for _, p := range panes {
		if p.Dead {
			h.paneDied(p.ID)
		}
	}
	return nil
}

// deathChannelOwner returns the process id a death channel names.
func deathChannelOwner(channel string) (int, bool) {
	rest, ok := strings.CutPrefix(channel, deathChannelPrefix)
	if !ok {
		return 0, false
	}
	pid, _, _ := strings.Cut(rest, "-")
	n, err := strconv.Atoi(pid)
	return n, err == nil && n > 0
}
