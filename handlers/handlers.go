package handlers

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/framed"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/inputwait"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/shellmarks"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
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
	// NoMarks: panes made with the default shell get no OSC 133
	// prompt marks (package shellmarks).
	NoMarks bool
	// NoSpare: run_program keeps no spare pane ready (spare.go).
	NoSpare bool
}

// DefaultLimits are the server defaults of DESIGN §4.
var DefaultLimits = Limits{WaitCeiling: 50 * time.Second, MaxLines: 200, MaxBytes: 65536, StartGrace: 250 * time.Millisecond}

// Handlers serves every tool against one tmux server.
type Handlers struct {
	tmux     *tmuxctl.Client
	hub      *live.Hub         // pane output streams
	exits    *live.ExitTracker // panes held for their exit status
	echo     *echo.Book        // what this server typed, for waits to discount
	commands *framed.Book      // run_shell_command's commands, for wait_for_command
	input    *inputwait.Engine // whether a pane's program waits for input
	limits   Limits
	// readTools are the tools call_read_tools_batch may call.
	readTools map[string]ReadTool
	// shutdown ends when the server is stopping: waits end as cancelled.
	shutdown context.Context
	execs    execSeen // pane processes seen to have exec'd (cwdUnknown)
	marks    *shellmarks.Installer
	spares   spares // run_program's spare pane
}

// New returns Handlers that talk to tmux through client and read pane
// output through hub. Waits in flight end early when shutdown is done.
func New(shutdown context.Context, client *tmuxctl.Client, hub *live.Hub, limits Limits) *Handlers {
	echoes, input := echo.NewBook(), inputwait.New(client)
	return &Handlers{tmux: client, hub: hub, exits: hub.Exits(), echo: echoes, commands: framed.New(client, hub, echoes, input), input: input, limits: limits, shutdown: shutdown,
		marks: shellmarks.NewInstaller("")}
}

// lines returns the line limit for a request that asked for max (nil: the
// server limit), never above the server limit.
func (l Limits) lines(max *int) int {
	if max == nil || *max > l.MaxLines || *max <= 0 {
		return l.MaxLines
	}
	return *max
}

// cutRequest is how a call that asked to keep which part of long output
// and at most maxLines lines (nil: the server limit) has it cut.
func (h *Handlers) cutRequest(which clip.Keep, maxLines *int) clip.Request {
	lines := h.limits.lines(maxLines)
	return clip.Request{Which: which, MaxLines: lines, Clamped: maxLines != nil && *maxLines != lines}
}

// clampMs clamps a requested wait in milliseconds to the ceiling.
func (l Limits) clampMs(ms float64) time.Duration { return waiting.Clamp(ms, l.WaitCeiling) }

// A Progress reports how far a wait has come: elapsed and total in
// milliseconds, and a short message.
type Progress = waiting.Progress

// WithProgress returns a context whose waits report to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return waiting.WithProgress(ctx, p)
}

// beginWait starts a wait of ms milliseconds, clamped to the ceiling; the
// caller must call Done.
func (h *Handlers) beginWait(ctx context.Context, ms float64, message string) *waiting.Wait {
	return waiting.Begin(ctx, h.shutdown, h.limits.clampMs(ms), message)
}

// waitContext bounds a call with a time budget rather than a wait by d
// and by server shutdown.
func (h *Handlers) waitContext(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return waiting.Bound(ctx, h.shutdown, d)
}

// effectiveMs is the timeout a wait of ms milliseconds would enforce, for
// a call that answers without waiting.
func (h *Handlers) effectiveMs(ms float64) int { return int(h.limits.clampMs(ms) / time.Millisecond) }

// A note is a sentence for the agent that the output schema has no field
// for: why a wait could not watch the pane, say. The catalogue puts it in
// the result's text ahead of the structured content.
type noteKey struct{}

type notes struct {
	mu    sync.Mutex
	lines []string
}

// WithNotes returns a context in which handlers can leave notes, and a
// function that returns them once the handler is done ("" for none).
func WithNotes(ctx context.Context) (context.Context, func() string) {
	n := &notes{}
	return context.WithValue(ctx, noteKey{}, n), func() string {
		n.mu.Lock()
		defer n.mu.Unlock()
		return strings.Join(n.lines, "\n")
	}
}

// note leaves a note (worded by package wording), if the caller asked
// for notes.
func note(ctx context.Context, text string) {
	if n, ok := ctx.Value(noteKey{}).(*notes); ok {
		n.mu.Lock()
		n.lines = append(n.lines, text)
		n.mu.Unlock()
	}
}
