package handlers

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A commandLog records every tmux command a client sends (each command of
// a command list counts once).
type commandLog struct {
	mu   sync.Mutex
	cmds [][]string
	at   []time.Time
}

func (l *commandLog) observe(argv []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cmds = append(l.cmds, append([]string(nil), argv...))
	l.at = append(l.at, time.Now())
}

// settle waits until the client has sent nothing for a while (what a
// call set going after its answer, such as a death's handling, belongs
// to it), five seconds at most.
func (l *commandLog) settle() {
	n := -1
	for range 50 {
		l.mu.Lock()
		m := len(l.cmds)
		l.mu.Unlock()
		if m == n {
			return
		}
		n = m
		time.Sleep(100 * time.Millisecond)
	}
}

// take returns the commands sent since the last take and forgets them.
func (l *commandLog) take() [][]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	cmds := l.cmds
	l.cmds, l.at = nil, nil
	return cmds
}

func countedHandlers(t *testing.T) (*Handlers, *commandLog, string) {
	t.Helper()
	log := &commandLog{}
	// The check for exits tmux missed runs every 2 s, whenever it falls:
	// a count must hold only what the call sends.
	h, _, sock := testHandlersWith(t, DefaultLimits, tmuxctl.Config{Observe: log.observe},
		live.Options{UnwatchedCheck: time.Hour})
	return h, log, sock
}

// awaitRelaysRecorded waits until the relay of every piped pane has been
// recorded in its mark ("<instance>.<nonce>.<nonce>.<relay pid>"): the
// hub records it once the relay says its pid, which on a loaded machine
// can come after a quiet spell of the command log, and then in the
// middle of the next, counted, call.
func awaitRelaysRecorded(t *testing.T, sock string) {
	t.Helper()
	for range 200 {
		pending := false
		for _, line := range strings.Split(tmuxtest.Run(t, sock, "list-panes", "-a", "-F", "#{pane_pipe} #{@tmux-mcp-pipe}"), "\n") {
			if pipe, mark, _ := strings.Cut(line, " "); pipe == "1" && strings.Count(mark, ".") < 3 {
				pending = true
			}
		}
		if !pending {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("a pane's relay was never recorded in its mark")
}

func describe(cmds [][]string) string {
	var b strings.Builder
	for _, c := range cmds {
		b.WriteString("\n\t")
		for i, a := range c {
			if i > 0 {
				b.WriteByte(' ')
			}
			if len(a) > 60 {
				a = a[:57] + "..."
			}
			b.WriteString(strings.ReplaceAll(a, "\n", `\n`))
		}
	}
	return b.String()
}

// TestCommandCounts: each tool that makes or runs something sends few tmux
// commands (counted as the commands of every command list tmuxctl sends: a
// command list of three counts three; what tmux runs for an if-shell and
// the gating shells in panes, which send none, are not counted). The first
// call of each kind, in a fresh instance, warms what an instance keeps
// (the server's version, the death hook, the program session); the second
// is counted, during the call and once the instance is quiet again after
// it: a program's exit is handled after start_program has answered.
func TestCommandCounts(t *testing.T) {
	var h *Handlers
	ctx := context.Background()
	str := func(s string) *string { return &s }
	calls := []struct {
		name          string
		during, total int // at most this many during the call, and in all
		call          func(t *testing.T)
	}{
		{"run_program true", 10, 10, func(t *testing.T) {
			out, err := h.RunProgram(ctx, gen.RunProgramInput{Argv: []string{"true"}, TimeoutMs: 10000})
			if err != nil || out.Outcome != gen.RunProgramOutputOutcomeCompleted || !out.PaneClosed {
				t.Fatalf("run_program = %+v, %v", out, err)
			}
		}},
		{"start_program sleep", 10, 10, func(t *testing.T) {
			out, err := h.StartProgram(ctx, gen.StartProgramInput{Argv: []string{"sleep", "100"}})
			if err != nil {
				t.Fatalf("start_program = %+v, %v", out, err)
			}
		}},
		// Its exit may be handled during the call or after it. The dead
		// pane's pipe ends with the pane (the hold's end kills it), or,
		// when the stream's settler comes first (a second after the death,
		// which a loaded machine reaches), is closed by it: two commands
		// more (pipe-pane, and the mark's removal). The pipe's end after
		// that asks tmux nothing (it asked about the pane and removed the
		// mark again: 21 in all, seen once under load).
		{"start_program true", 20, 20, func(t *testing.T) {
			out, err := h.StartProgram(ctx, gen.StartProgramInput{Argv: []string{"true"}})
			if err != nil {
				t.Fatalf("start_program = %+v, %v", out, err)
			}
		}},
		{"create_session", 3, 3, func(t *testing.T) {
			if _, err := h.CreateSession(ctx, gen.CreateSessionInput{}); err != nil {
				t.Fatal(err)
			}
		}},
		{"create_session argv", 7, 7, func(t *testing.T) {
			if _, err := h.CreateSession(ctx, gen.CreateSessionInput{Argv: []string{"sleep", "100"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{"create_window", 3, 3, func(t *testing.T) {
			if _, err := h.CreateWindow(ctx, gen.CreateWindowInput{SessionID: "$0", Name: str("w")}); err != nil {
				t.Fatal(err)
			}
		}},
		{"create_window argv", 7, 7, func(t *testing.T) {
			if _, err := h.CreateWindow(ctx, gen.CreateWindowInput{SessionID: "$0", Argv: []string{"sleep", "100"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{"split_window", 3, 3, func(t *testing.T) {
			if _, err := h.SplitWindow(ctx, gen.SplitWindowInput{PaneID: "%0"}); err != nil {
				t.Fatal(err)
			}
		}},
		{"split_window argv", 7, 7, func(t *testing.T) {
			if _, err := h.SplitWindow(ctx, gen.SplitWindowInput{PaneID: "%0", Argv: []string{"sleep", "100"}}); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			var log *commandLog
			var sock string
			h, log, sock = countedHandlers(t)
			during, total := c.during, c.total
			if strings.HasPrefix(c.name, "create_session") && strings.HasPrefix(tmuxtest.Run(t, sock, "display-message", "-p", "#{version}"), "3.2") {
				// tmux 3.2a sizes a detached session's window by default-size
				// only when asked: its value is read and the window resized.
				during, total = during+2, total+2
			}
			// Programs' panes, not the program session's first window
			// ("about"), which stays.
			programPanes := func() []string {
				var ids []string
				for _, line := range strings.Split(tmuxtest.Run(t, sock, "list-panes", "-a", "-F", "#{pane_id} #{window_name}"), "\n") {
					if id, window, ok := strings.Cut(line, " "); ok && window != "about" {
						ids = append(ids, id)
					}
				}
				return ids
			}
			before := programPanes()
			c.call(t) // warm
			if strings.HasSuffix(c.name, " true") {
				// The warm program's pane must be gone, its end handled,
				// before the counted call: on a loaded machine its death can
				// be heard after a quiet 100 ms, and tmux 3.3a can miss a
				// child's exit until it reaps another (a run-shell of its
				// own makes it reap).
				for i := 0; ; i++ {
					// The spare pane the warm run_program leaves is not its own.
					h.spares.mu.Lock()
					spare := ""
					if h.spares.ready != nil {
						spare = string(h.spares.ready.sp.Created.Pane)
					}
					h.spares.mu.Unlock()
					warm := slices.DeleteFunc(programPanes(), func(id string) bool { return slices.Contains(before, id) || id == spare })
					if len(warm) == 0 {
						break
					}
					if i == 200 {
						t.Fatalf("the warm program's pane %s is still there after 5 s", warm)
					}
					if i%8 == 7 {
						tmuxtest.Run(t, sock, "run-shell", "true")
					}
					time.Sleep(25 * time.Millisecond)
				}
			}
			awaitRelaysRecorded(t, sock)
			log.settle()
			log.take()
			c.call(t)
			sent := log.take()
			log.settle()
			after := log.take()
			t.Logf("%d commands during the call, %d after:%s\n\tafter:%s", len(sent), len(after), describe(sent), describe(after))
			if len(sent) > during || len(sent)+len(after) > total {
				t.Errorf("%s sent %d tmux commands during the call and %d after, want at most %d and %d in all", c.name, len(sent), len(after), during, total)
			}
		})
	}
}
