package handlers

import (
	"context"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// Limits bound what any one call may cost or return.
type Limits struct {
	WaitCeiling time.Duration // longest wait any call may make
	MaxLines    int           // most lines of pane text in one result
	MaxBytes    int           // most bytes across the text fields of one result
	// StartGrace: a program create_* starts that exits within this of its
	// exec is reported as one that could not start.
	StartGrace time.Duration
}

// DefaultLimits are the server defaults of DESIGN §4.
var DefaultLimits = Limits{WaitCeiling: 50 * time.Second, MaxLines: 200, MaxBytes: 65536, StartGrace: 250 * time.Millisecond}

// Handlers serves every tool against one tmux server.
type Handlers struct {
	tmux     *tmuxctl.Client
	hub      *live.Hub         // pane output streams
	exits    *live.ExitTracker // panes held for their exit status
	echo     *echoBook         // what this server typed, for waits to discount
	commands *commandBook      // run_shell_command's commands, for wait_for_command
	limits   Limits
	// readTools are the tools call_read_tools_batch may call.
	readTools map[string]ReadTool
	// shutdown ends when the server is stopping: waits end as cancelled.
	shutdown context.Context
}

// New returns Handlers that talk to tmux through client and read pane
// output through hub. Waits in flight end early when shutdown is done.
func New(shutdown context.Context, client *tmuxctl.Client, hub *live.Hub, limits Limits) *Handlers {
	return &Handlers{tmux: client, hub: hub, exits: hub.Exits(), echo: newEchoBook(), commands: newCommandBook(hub.Dir(), hub.ExitGrace()), limits: limits, shutdown: shutdown}
}

// lines returns the line limit for a request that asked for max (nil: the
// server limit), never above the server limit.
func (l Limits) lines(max *int) int {
	if max == nil || *max > l.MaxLines || *max <= 0 {
		return l.MaxLines
	}
	return *max
}

// clampMs clamps a requested wait in milliseconds to the ceiling. It works
// on the number before converting, so no request can overflow a Duration.
func (l Limits) clampMs(ms float64) time.Duration {
	ceiling := l.WaitCeiling
	if ms >= float64(ceiling/time.Millisecond) {
		return ceiling
	}
	if ms <= 0 {
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}
