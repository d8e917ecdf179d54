package e2e

// Tests of what tmux-mcp leaves behind (issue 7). tmux-mcp never attaches a
// client to tmux (a control client mid-handshake crashes every tmux before
// 3.7). While it runs it leaves only these footprints: the pane option
// @tmux-mcp-pipe and an open pipe-pane on a watched pane; the pane option
// @tmux-mcp-hold and a pane-level remain-on-exit on a pane held for its exit
// status; one global pane-died hook entry (tiers mutating and destructive);
// one private directory $TMPDIR/tmux-mcp-<pid>-<random>; `tmux wait-for`
// children; and what pipe-pane runs: a pane's tap (the tmux-mcp binary in
// tap mode, with its socket in $TMPDIR/tmux-mcp-taps-<uid>-<hash>), or a
// `cat` relay into a FIFO for a gated program. After it ends, however it
// ends, once a fresh tmux-mcp has started on the same socket and its taps
// have had --stream-idle (tapIdle here) without a reader, none of them is
// left and every pane's own remain-on-exit is what it was: a tap outlives
// the instance that started it on purpose, so that a restarted instance
// or another one continues its stream.
//
// Every tmux here is private (tmuxtest.Server: its own socket, -f
// /dev/null, killed at cleanup); every process is signalled by its pid. The
// bounds are generous on purpose: a machine twenty times slower must pass.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// tapIdle is the --stream-idle of every instance here: how long a tap
// lives on without a reader.
const tapIdle = "--stream-idle=3s"

const (
	pipeOption = "@tmux-mcp-pipe" // on a watched pane
	holdOption = "@tmux-mcp-hold" // on a pane held for its exit status
	ourOptions = "@tmux-mcp"      // the prefix of every option of ours
)

// TestLeftoverAfterKill ends tmux-mcp in every way it can end while a call
// is in flight, lets a fresh tmux-mcp start once on the same socket and
// TMPDIR, and then finds nothing of either left.
func TestLeftoverAfterKill(t *testing.T) {
	skipIfShort(t)
	for _, call := range inFlightCalls {
		for _, kill := range killModes {
			t.Run(call.name+"/"+kill.name, func(t *testing.T) {
				t.Parallel()
				testLeftoverAfterKill(t, call, kill)
			})
		}
	}
}

// An inFlightCall is a long call that is running when tmux-mcp is killed.
type inFlightCall struct {
	name    string
	safety  string
	program []string // what each of its panes runs
	tool    string
	args    func(pane string) map[string]any
	sign    inFlight
	// exits: the test also ends the program of some panes after tmux-mcp is
	// gone, while they may still be held: those panes must close, as they
	// would have without tmux-mcp.
	exits bool
}

var inFlightCalls = []inFlightCall{
	{
		name: "wait_for_exit", safety: "destructive", program: []string{"sleep", "1000"}, exits: true,
		tool: "wait_for_exit",
		args: func(p string) map[string]any { return map[string]any{"paneId": p, "timeoutMs": 30000} },
		sign: heldSign,
	},
	{
		name: "run_shell_command", safety: "destructive", program: []string{"sh"},
		tool: "run_shell_command",
		args: func(p string) map[string]any {
			return map[string]any{"paneId": p, "command": "sleep 1000", "timeoutMs": 30000}
		},
		sign: shellSign,
	},
	{
		name: "wait_for_text", safety: "destructive", program: []string{"sleep", "1000"},
		tool: "wait_for_text",
		args: func(p string) map[string]any {
			return map[string]any{"paneId": p, "patterns": []string{"text that never comes 7f3a"}, "timeoutMs": 30000}
		},
		sign: watchedSign,
	},
}

// A killMode ends a running tmux-mcp.
type killMode struct {
	name string
	kill func(m *mcpServer) error
}

var killModes = []killMode{
	{"SIGTERM", func(m *mcpServer) error { return m.Cmd.Process.Signal(syscall.SIGTERM) }},
	{"SIGHUP", func(m *mcpServer) error { return m.Cmd.Process.Signal(syscall.SIGHUP) }},
	{"SIGKILL", func(m *mcpServer) error { return m.Cmd.Process.Signal(syscall.SIGKILL) }},
	{"stdout-closed", func(m *mcpServer) error {
		// Nobody reads its stdout any more: the reply to this ping is the
		// next write, and it gets SIGPIPE.
		m.CloseOutput()
		m.start("ping", map[string]any{})
		return nil
	}},
	{"stdin-EOF", func(m *mcpServer) error { return m.CloseInput() }},
}

func testLeftoverAfterKill(t *testing.T, call inFlightCall, kill killMode) {
	sock := tmuxtest.Server(t)
	tmpdir := privateTmpdir(t)
	panes := makeTestPanes(t, sock, call.program, call.exits)
	m := launchMCP(t, sock, tmpdir, "--safety", call.safety, tapIdle)
	for _, p := range panes {
		m.start("tools/call", map[string]any{"name": call.tool, "arguments": call.args(p.id)})
	}
	for _, p := range panes {
		awaitInFlight(t, m, sock, p.id, call.sign)
	}

	ours := descendants(processes(), m.pid())
	if err := kill.kill(m); err != nil {
		t.Fatalf("%s: %v", kill.name, err)
	}
	if !m.awaitExit(replyBound) {
		t.Errorf("tmux-mcp still runs %v after %s; killing it to go on", replyBound, kill.name)
		m.Cmd.Process.Kill()
		m.awaitExit(replyBound)
	}

	// Programs that end now end while their pane may still be held.
	for _, p := range panes {
		if p.exits {
			endPaneProgram(t, sock, p.id)
		}
	}
	runFreshOnce(t, sock, tmpdir, call.safety)
	awaitClean(t, cleanState{sock: sock, tmpdir: tmpdir, panes: panes, ours: ours}, "after "+kill.name+" and a fresh start")
	checkKillServer(t, sock)
}

// TestLeftoverFootprints checks, while calls are in flight, that tmux-mcp
// shows in tmux and on the machine exactly as documented, and nothing else;
// then that it takes all of it away on a normal exit (stdin EOF).
func TestLeftoverFootprints(t *testing.T) {
	skipIfShort(t)
	for _, tc := range []struct {
		safety      string
		hold, shell bool // a wait_for_exit and a run_shell_command in flight too
	}{
		{safety: "destructive", hold: true, shell: true},
		{safety: "mutating", hold: true},
		{safety: "readonly"}, // no exit holds, so no hook
	} {
		t.Run(tc.safety, func(t *testing.T) {
			t.Parallel()
			sock := tmuxtest.Server(t)
			tmpdir := privateTmpdir(t)
			watched := newPane(t, sock, "sleep", "1000")
			untouched := newPane(t, sock, "sleep", "1000")
			m := launchMCP(t, sock, tmpdir, "--safety", tc.safety, tapIdle)

			want := map[string]string{watched: pipeOption} // pane → the option it must carry
			m.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
				"paneId": watched, "patterns": []string{"never printed 51c2"}, "timeoutMs": 30000}})
			awaitInFlight(t, m, sock, watched, watchedSign)
			if tc.hold {
				held := newPane(t, sock, "sleep", "1000")
				want[held] = holdOption
				m.start("tools/call", map[string]any{"name": "wait_for_exit", "arguments": map[string]any{
					"paneId": held, "timeoutMs": 30000}})
				awaitInFlight(t, m, sock, held, heldSign)
			}
			if tc.shell {
				shell := newPane(t, sock, "sh")
				want[shell] = pipeOption
				reply := m.start("tools/call", map[string]any{"name": "run_shell_command", "arguments": map[string]any{
					"paneId": shell, "command": "sleep 1000", "timeoutMs": 30000}})
				awaitInFlight(t, m, sock, shell, shellSign)
				if t.Failed() {
					if r, ok := m.Reply(reply); ok {
						t.Logf("run_shell_command had answered: %s", r)
					} else {
						t.Logf("run_shell_command had not answered; pane: %s", tmuxtest.Run(t, sock, "capture-pane", "-p", "-t", shell))
					}
				}
			}
			want[untouched] = ""

			checkPaneFootprints(t, sock, want)
			checkHookFootprint(t, sock, tc.safety != "readonly")
			checkNoOptionsElsewhere(t, sock)
			checkTmpdirFootprint(t, tmpdir, m.pid())
			checkProcessFootprints(t, sock, tmpdir, m.pid())
			checkNoClients(t, sock, "while calls are in flight")

			m.CloseInput()
			if !m.awaitExit(replyBound) {
				t.Fatalf("tmux-mcp did not exit within %v of stdin EOF", replyBound)
			}
			var panes []testPane
			for p := range want {
				panes = append(panes, testPane{id: p}) // the test set no remain-on-exit
			}
			awaitClean(t, cleanState{sock: sock, tmpdir: tmpdir, panes: panes}, "after stdin EOF")
		})
	}
}

// TestLeftoverNoClient watches every pane of a 100x30 session and checks,
// the whole time, that no client is attached and the window keeps its size
// (tmux 3.2a resizes a session for an attached control client). Meanwhile
// it makes the notifications that crash tmux < 3.7 under a control client
// mid-handshake: windows made, renamed and killed, pane output.
func TestLeftoverNoClient(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "wide", "-x", "100", "-y", "30", "cat")
	panes := []string{strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", "wide:", "#{pane_id}"))}
	for range 3 {
		out := tmuxtest.Run(t, sock, "split-window", "-d", "-P", "-F", "#{pane_id}", "-t", "wide:", "cat")
		panes = append(panes, strings.TrimSpace(out))
	}
	const size = "100x30"
	if windowSize(t, sock, "wide:") != size {
		// tmux 3.2a sizes a detached session 80x23 whatever -x and -y say;
		// resize-window sizes it but sets window-size manual, which would
		// keep any client from resizing it: unset that again.
		tmuxtest.Run(t, sock, "resize-window", "-t", "wide:", "-x", "100", "-y", "30")
		tmuxtest.Run(t, sock, "set-option", "-w", "-u", "-t", "wide:", "window-size")
	}
	if got := windowSize(t, sock, "wide:"); got != size {
		t.Fatalf("the new session's window is %s, want %s", got, size)
	}
	serverPid := serverPID(t, sock)
	sizes, err := windowSizes(sock) // main's too
	if err != nil {
		t.Fatal(err)
	}

	// A sampler watches for the whole test, so that even a client attached
	// for a moment is seen.
	var (
		mu         sync.Mutex
		violations []string
		stop       = make(chan struct{})
		stopped    = make(chan struct{})
	)
	note := func(v string) {
		mu.Lock()
		defer mu.Unlock()
		if !slices.Contains(violations, v) && len(violations) < 20 {
			violations = append(violations, v)
		}
	}
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if cs, err := listClients(sock); err == nil && len(cs) > 0 {
				note(fmt.Sprintf("client attached: %v", cs))
			}
			if now, err := windowSizes(sock); err == nil {
				for w, was := range sizes {
					if now[w] != "" && now[w] != was {
						note(fmt.Sprintf("window %s resized from %s to %s", w, was, now[w]))
					}
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()

	m := launchMCP(t, sock, privateTmpdir(t), tapIdle)
	var replies []string
	for i, p := range panes {
		replies = append(replies, m.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
			"paneId": p, "patterns": []string{fmt.Sprintf("ready-%d!", i)}, "timeoutMs": 30000}}))
	}
	for _, p := range panes {
		awaitInFlight(t, m, sock, p, watchedSign)
	}
	// Notifications every client would be sent.
	tmuxtest.Run(t, sock, "rename-window", "-t", "wide:", "renamed")
	w := strings.TrimSpace(tmuxtest.Run(t, sock, "new-window", "-d", "-P", "-F", "#{window_id}", "-t", "main:", "sleep", "1000"))
	tmuxtest.Run(t, sock, "rename-window", "-t", w, "other")
	tmuxtest.Run(t, sock, "kill-window", "-t", w)
	// Output that does not match, seen on screen before going on.
	for _, p := range panes {
		tmuxtest.Run(t, sock, "send-keys", "-t", p, "-l", "not yet\n")
		if !poll(settleBound, func() bool {
			out, _ := tmuxQuery(sock, "capture-pane", "-p", "-t", p)
			return strings.Contains(out, "not yet")
		}) {
			t.Fatalf("%s never showed the text sent to it", p)
		}
	}
	for i, p := range panes {
		tmuxtest.Run(t, sock, "send-keys", "-t", p, "-l", fmt.Sprintf("ready-%d!\n", i))
	}
	for i, r := range replies {
		out, err := m.answer("wait_for_text", r)
		if err != nil {
			t.Errorf("wait_for_text on %s: %v", panes[i], err)
		} else if out["outcome"] != "matched" {
			t.Errorf("wait_for_text on %s: outcome %v, want matched", panes[i], out["outcome"])
		}
	}
	m.CloseInput()
	if !m.awaitExit(replyBound) {
		t.Errorf("tmux-mcp did not exit within %v of stdin EOF", replyBound)
	}
	close(stop)
	<-stopped

	for _, v := range violations {
		t.Error(v)
	}
	if got := windowSize(t, sock, "wide:"); got != size {
		t.Errorf("after tmux-mcp: window wide is %s, want %s", got, size)
	}
	if got := serverPID(t, sock); got != serverPid {
		t.Errorf("the tmux server changed (pid %d, then %d): it crashed", serverPid, got)
	}
}

// TestLeftoverStaleHoldAfterRestart holds two panes, restarts the tmux
// server under tmux-mcp so that new panes get the same ids, and checks that
// when the stale holds' grace runs out the new panes are left alone: their
// remain-on-exit untouched, their output seen, their exits as the user's
// remain-on-exit says.
func TestLeftoverStaleHoldAfterRestart(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	newPane(t, sock, "sleep", "1000")
	m := launchMCP(t, sock, privateTmpdir(t), "--exit-grace", "4s", tapIdle)
	old := []string{"%0", "%1"}
	for _, p := range old {
		out, err := m.tool("wait_for_exit", map[string]any{"paneId": p, "timeoutMs": 500})
		if err != nil {
			t.Fatalf("wait_for_exit %s: %v", p, err)
		}
		if out["outcome"] != "timed_out" {
			t.Fatalf("wait_for_exit %s: outcome %v, want timed_out", p, out["outcome"])
		}
	}
	lastWait := time.Now()
	for _, p := range old {
		opts, _ := paneOptions(sock, p)
		if _, held := opts[holdOption]; !held || opts["remain-on-exit"] != "on" {
			t.Errorf("%s after a timed-out wait_for_exit: pane options %v, want %s and remain-on-exit on (still held)", p, opts, holdOption)
		}
	}

	oldPid := serverPID(t, sock)
	tmuxtest.Run(t, sock, "kill-server")
	if !poll(settleBound, func() bool { return !alive(oldPid) }) {
		t.Fatalf("tmux server %d still runs %v after kill-server", oldPid, settleBound)
	}
	// The program prints what it is sent, then exits 7 at the next line.
	// It waits for that line because tmux closes a pane that no pipe reads
	// as soon as its program exits, dropping output it has not yet read
	// (window_pane_destroy_ready asks FIONREAD only when a pipe is open).
	prog := []string{"sh", "-c", `read x; echo "out-$x"; read y; exit 7`}
	tmuxtest.Run(t, sock, append([]string{"new-session", "-d", "-s", "main", "-x", "80", "-y", "24"}, prog...)...)
	if p := newPane(t, sock, prog...); p != "%1" {
		t.Fatalf("the new server's second pane is %s, want %%1 (reused id)", p)
	}
	remain := map[string]string{"%0": "off", "%1": "on"}
	for p, v := range remain {
		tmuxtest.Run(t, sock, "set-option", "-p", "-t", p, "remain-on-exit", v)
	}

	// The stale holds' grace (4 s after the last wait) runs out now: waiting
	// on the clock is the point here.
	time.Sleep(time.Until(lastWait.Add(4*time.Second + 3*time.Second)))
	for p, v := range remain {
		opts, err := paneOptions(sock, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if opts["remain-on-exit"] != v {
			t.Errorf("new %s: remain-on-exit %q, want %q as set (a stale hold touched it)", p, opts["remain-on-exit"], v)
		}
		for k := range opts {
			if strings.HasPrefix(k, ourOptions) {
				t.Errorf("new %s: option %s, though nothing waits on it", p, k)
			}
		}
	}
	if ps, err := listPanes(sock); err != nil || len(ps) != 2 || ps["%0"].dead || ps["%1"].dead {
		t.Fatalf("new panes after the grace: %v %v, want %%0 and %%1 alive", ps, err)
	}

	// The new panes work like any: the output is seen, the exit status
	// reported, and %0 (remain-on-exit off) closes while %1 stays dead.
	text := m.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
		"paneId": "%0", "patterns": []string{"out-go0"}, "timeoutMs": 30000}})
	awaitInFlight(t, m, sock, "%0", watchedSign)
	exits := map[string]string{}
	for _, p := range []string{"%0", "%1"} {
		exits[p] = m.start("tools/call", map[string]any{"name": "wait_for_exit", "arguments": map[string]any{
			"paneId": p, "timeoutMs": 30000}})
	}
	// %1 needs no head start: the user's remain-on-exit keeps it dead
	// with its status for a wait that comes late.
	awaitInFlight(t, m, sock, "%0", heldSign)
	tmuxtest.Run(t, sock, "send-keys", "-t", "%0", "-l", "go0\n")
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "-l", "go1\n")
	if out, err := m.answer("wait_for_text", text); err != nil || out["outcome"] != "matched" {
		t.Errorf("wait_for_text out-go0 on the new %%0: %v %v, want matched", out, err)
	}
	var out string
	if !poll(settleBound, func() bool {
		out, _ = tmuxQuery(sock, "capture-pane", "-p", "-t", "%1")
		return strings.Contains(out, "out-go1")
	}) {
		t.Errorf("new %%1 shows %q, want its output out-go1", out)
	}
	for _, p := range []string{"%0", "%1"} {
		tmuxtest.Run(t, sock, "send-keys", "-t", p, "Enter")
	}
	for p, r := range exits {
		if out, err := m.answer("wait_for_exit", r); err != nil || out["outcome"] != "completed" || out["exitStatus"] != float64(7) {
			t.Errorf("wait_for_exit on the new %s: %v %v, want completed with status 7", p, out, err)
		}
	}
	if !poll(settleBound, func() bool { ps, _ := listPanes(sock); _, ok := ps["%0"]; return !ok }) {
		t.Errorf("new %%0 (remain-on-exit off) did not close after its program exited")
	}
	ps, _ := listPanes(sock)
	if !ps["%1"].dead {
		t.Errorf("new %%1 (remain-on-exit on) is %+v after its program exited, want it left dead", ps["%1"])
	}
	// The dead pane keeps what it showed.
	if out, _ = tmuxQuery(sock, "capture-pane", "-p", "-t", "%1"); !strings.Contains(out, "out-go1") {
		t.Errorf("dead %%1 shows %q, want its output out-go1 kept", out)
	}
}

// TestLeftoverKillServerWhileWatched kills the tmux server under calls in
// flight: the server must end, the calls be answered, tmux-mcp keep serving,
// and nothing of ours outlive it.
func TestLeftoverKillServerWhileWatched(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmpdir := privateTmpdir(t)
	watched, held := newPane(t, sock, "sleep", "1000"), newPane(t, sock, "sleep", "1000")
	m := launchMCP(t, sock, tmpdir, "--safety", "destructive", tapIdle)
	text := m.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
		"paneId": watched, "patterns": []string{"never printed 0d9e"}, "timeoutMs": 30000}})
	exit := m.start("tools/call", map[string]any{"name": "wait_for_exit", "arguments": map[string]any{
		"paneId": held, "timeoutMs": 30000}})
	awaitInFlight(t, m, sock, watched, watchedSign)
	awaitInFlight(t, m, sock, held, heldSign)
	ours := descendants(processes(), m.pid())

	checkKillServer(t, sock)
	if _, err := m.answer("wait_for_text", text); err != nil && !errors.Is(err, errToolError) {
		t.Errorf("wait_for_text after kill-server: %v", err)
	}
	if out, err := m.answer("wait_for_exit", exit); err == nil && out["outcome"] != "gone" {
		t.Errorf("wait_for_exit after kill-server: outcome %v, want gone", out["outcome"])
	} else if err != nil && !errors.Is(err, errToolError) {
		t.Errorf("wait_for_exit after kill-server: %v", err)
	}
	// No tmux now: an error is the right answer, but it must be an answer.
	if _, err := m.tool("list_panes", map[string]any{}); err != nil && !errors.Is(err, errToolError) {
		t.Errorf("list_panes with no tmux server: %v", err)
	}
	m.CloseInput()
	if !m.awaitExit(replyBound) {
		t.Errorf("tmux-mcp did not exit within %v of stdin EOF", replyBound)
	}
	if !poll(settleBound, func() bool { return len(processProblems(sock, tmpdir, ours, nil)) == 0 }) {
		for _, p := range processProblems(sock, tmpdir, ours, nil) {
			t.Error(p)
		}
	}
	if left := tmpdirEntries(tmpdir); len(left) > 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}

// ---- in-flight signs ------------------------------------------------------

// An inFlight says how a call in flight on a pane shows in tmux: the pane
// option the design sets, and a sign seen whatever the design (on the code
// before issue 7 too), so that a missing option is reported rather than
// waited on for long.
type inFlight struct {
	option string
	sign   func(sock, pane string) bool
}

var (
	heldSign = inFlight{holdOption, func(sock, pane string) bool {
		opts, _ := paneOptions(sock, pane)
		return opts["remain-on-exit"] == "on"
	}}
	watchedSign = inFlight{pipeOption, func(sock, pane string) bool {
		ps, _ := listPanes(sock)
		cs, _ := listClients(sock) // how the old design watched
		return ps[pane].pipe || len(cs) > 0
	}}
	shellSign = inFlight{pipeOption, func(sock, pane string) bool {
		ps, _ := listPanes(sock)
		return ps[pane].command == "sleep"
	}}
)

// optionGrace is how long the option may lag the sign (set by a separate
// tmux command, on a loaded machine).
const optionGrace = 5 * time.Second

// awaitInFlight returns once the call on pane shows in tmux, and reports
// an error if the design's pane option is not there.
func awaitInFlight(t *testing.T, m *mcpServer, sock, pane string, f inFlight) {
	t.Helper()
	hasOption := func() bool {
		opts, _ := paneOptions(sock, pane)
		_, ok := opts[f.option]
		return ok
	}
	var signed time.Time // when the sign was first seen
	found := poll(inFlightBound, func() bool {
		switch {
		case m.exited() || hasOption():
			return true
		case signed.IsZero() && f.sign(sock, pane):
			signed = time.Now()
		}
		// Once a tmux-mcp has shown that it sets no option, waiting on
		// the next one is only lost time.
		return !signed.IsZero() && (m.setsNoOptions || time.Since(signed) > optionGrace)
	})
	if m.exited() {
		t.Fatalf("tmux-mcp exited: %s", m.stderrTail())
	}
	if hasOption() {
		return
	}
	opts, _ := paneOptions(sock, pane)
	if found {
		m.setsNoOptions = true
		t.Errorf("%s: no pane option %s while a call on it is in flight (pane options: %v)", pane, f.option, opts)
	} else {
		t.Errorf("%s: the call never showed in tmux within %v (pane options: %v)", pane, inFlightBound, opts)
	}
}

// ---- footprints while running ---------------------------------------------

// checkPaneFootprints checks every pane's options: want maps each test pane
// to the one option of ours it must carry ("" for none); a pane carries
// @tmux-mcp-pipe exactly when its pipe-pane is open; held panes have
// remain-on-exit on, the others none set at pane level (the test set none).
func checkPaneFootprints(t *testing.T, sock string, want map[string]string) {
	t.Helper()
	panes, err := listPanes(sock)
	if err != nil {
		t.Fatal(err)
	}
	for id, p := range panes {
		opts, err := paneOptions(sock, id)
		if err != nil {
			t.Fatal(err)
		}
		for k := range opts {
			if strings.HasPrefix(k, ourOptions) && k != pipeOption && k != holdOption {
				t.Errorf("%s: unexpected option %s", id, k)
			}
		}
		_, piped := opts[pipeOption]
		if piped != p.pipe {
			t.Errorf("%s: option %s set %v but pane_pipe %v", id, pipeOption, piped, p.pipe)
		}
		_, held := opts[holdOption]
		if held && opts["remain-on-exit"] != "on" {
			t.Errorf("%s: held but remain-on-exit %q at pane level, want on", id, opts["remain-on-exit"])
		}
		if !held && want[id] != holdOption && opts["remain-on-exit"] != "" {
			t.Errorf("%s: not held but remain-on-exit %q at pane level, want unset", id, opts["remain-on-exit"])
		}
		if w, ok := want[id]; ok && w != "" {
			if _, has := opts[w]; !has {
				t.Errorf("%s: no option %s (options %v)", id, w, opts)
			}
		} else if ok && (piped || held) {
			t.Errorf("%s: nothing waits on it, yet it has options %v", id, opts)
		}
	}
}

var ourHook = regexp.MustCompile(`^pane-died\[\d+\] .*tmux-mcp-died-`)

// checkHookFootprint checks the global hooks: one pane-died entry of ours
// when the tier allows exit waits, none otherwise.
func checkHookFootprint(t *testing.T, sock string, want bool) {
	t.Helper()
	hooks, err := ourHooks(sock)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case want && (len(hooks) != 1 || !ourHook.MatchString(hooks[0])):
		t.Errorf("global hooks of ours: %q, want one pane-died[N] entry naming tmux-mcp-died-", hooks)
	case !want && len(hooks) > 0:
		t.Errorf("global hooks of ours: %q, want none in this tier", hooks)
	}
}

// checkNoOptionsElsewhere checks that no server, session or window option
// of ours exists (ours are pane options only).
func checkNoOptionsElsewhere(t *testing.T, sock string) {
	t.Helper()
	scopes := [][]string{{"-s"}, {"-g"}, {"-g", "-w"}}
	sessions, _ := tmuxQuery(sock, "list-sessions", "-F", "#{session_id}")
	for _, s := range lines(sessions) {
		scopes = append(scopes, []string{"-t", s})
	}
	windows, _ := tmuxQuery(sock, "list-windows", "-a", "-F", "#{window_id}")
	for _, w := range lines(windows) {
		scopes = append(scopes, []string{"-w", "-t", w})
	}
	for _, scope := range scopes {
		out, err := tmuxQuery(sock, append([]string{"show-options"}, scope...)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines(out) {
			if strings.Contains(l, "tmux-mcp") {
				t.Errorf("show-options %s: %q", strings.Join(scope, " "), l)
			}
		}
	}
}

// checkTmpdirFootprint checks that TMPDIR holds one directory of ours,
// named for pid, with only FIFOs and command files in it.
func checkTmpdirFootprint(t *testing.T, tmpdir string, pid int) {
	t.Helper()
	var entries []string
	for _, e := range tmpdirEntries(tmpdir) {
		if tapsDir.MatchString(e) {
			checkTapsDir(t, filepath.Join(tmpdir, e))
			continue
		}
		if marksDir.MatchString(e) {
			// The shell-mark files, shared by every instance of a
			// version and kept on purpose (docs/shell-marks.md).
			if fi, err := os.Lstat(filepath.Join(tmpdir, e)); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: want a directory of mode 0700: %v", e, err)
			}
			continue
		}
		entries = append(entries, e)
	}
	name := regexp.MustCompile(fmt.Sprintf(`^tmux-mcp-%d-[^/]+$`, pid))
	if len(entries) != 1 || !name.MatchString(entries[0]) {
		t.Errorf("TMPDIR holds %q, want one directory tmux-mcp-%d-<random> (and the taps' directory)", entries, pid)
		return
	}
	dir := filepath.Join(tmpdir, entries[0])
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Errorf("%s: %v", dir, err)
	}
	for _, f := range files {
		if f.Name() == "ready" && f.Type() == fs.ModeSocket {
			continue // where the taps it starts say they listen
		}
		if typ := f.Type(); typ != fs.ModeNamedPipe && typ != 0 {
			t.Errorf("%s: %s is %v, want a FIFO, a regular file or the socket \"ready\"", dir, f.Name(), typ)
		}
	}
}

// checkProcessFootprints checks the processes: tmux-mcp's children are
// `tmux wait-for` (any other must be a passing command client, gone
// within settleBound), and the processes with a file open in TMPDIR are
// tmux-mcp, the pipe-pane relays (a cat under the tmux server whose stdout
// is a FIFO there, or the pipe the stream host took from its relay; one
// per open pipe-pane) and pane programs (a shell reading a command file).
// marksDir names the directory of the shell-mark files.
var marksDir = regexp.MustCompile(`^tmux-mcp-marks-[0-9]+-[0-9a-f]{8}$`)

// tapsDir names the taps' directory of a tmux server.
var tapsDir = regexp.MustCompile(`^tmux-mcp-taps-[0-9]+-[0-9a-f]{8}$`)

// hostLock names the stream host's lock file in the taps' directory.
var hostLock = regexp.MustCompile(`^host[0-9A-Za-z_-]+\.lock$`)

// checkTapsDir checks that the taps' directory is private and holds only
// sockets (the stream host's, or an older version's taps') and the
// host's lock file.
func checkTapsDir(t *testing.T, dir string) {
	t.Helper()
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s: want a directory of mode 0700: %v %v", dir, fi, err)
		return
	}
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if f.Type().IsRegular() && hostLock.MatchString(f.Name()) {
			continue
		}
		if f.Type() != fs.ModeSocket || !strings.HasSuffix(f.Name(), ".sock") {
			t.Errorf("%s: %s is %v, want only sockets and the host's lock", dir, f.Name(), f.Type())
		}
	}
}

// isTap reports whether p is a pane's tap (this binary run as "tap", as
// versions before the stream host ran it) or the stream host (run as
// "host").
func isTap(p process) bool {
	return len(p.argv) > 1 && filepath.Base(p.argv[0]) == "tmux-mcp" && (p.argv[1] == "tap" || p.argv[1] == "host")
}

// isHost reports whether p is the stream host of the tmux server at sock.
func isHost(p process, sock string) bool {
	return len(p.argv) > 1 && filepath.Base(p.argv[0]) == "tmux-mcp" && p.argv[1] == "host" && slices.Contains(p.argv, sock)
}

func checkProcessFootprints(t *testing.T, sock, tmpdir string, pid int) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Log("process checks need /proc: skipped")
		return
	}
	ps := processes()
	var passing []process
	for _, p := range descendants(ps, pid) {
		if !isWaitFor(p) && !isHost(p, sock) {
			passing = append(passing, p)
		}
	}
	if !poll(settleBound, func() bool { return len(stillAlive(passing)) == 0 }) {
		for _, p := range stillAlive(passing) {
			t.Errorf("child of tmux-mcp other than tmux wait-for, still running: %d %q", p.pid, p.argv)
		}
	}

	ps = processes()
	server := serverPID(t, sock)
	panes, _ := listPanes(sock)
	relays := 0
	for _, p := range ps {
		if isHost(p, sock) {
			relays += takenPipes(p.pid) // on Linux the host reads them itself
		}
		if p.pid == pid || isDescendant(ps, p.pid, pid) {
			continue
		}
		if isTap(p) && isDescendant(ps, p.pid, server) && slices.Contains(p.argv, sock) {
			relays++
			continue
		}
		open := fdsInto(p.pid, tmpdir)
		if len(open) == 0 || inPane(ps, panes, p.pid) {
			continue
		}
		// A relay into the stream host writes a FIFO whose name the host
		// has removed once the relay opened it.
		out, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/1", p.pid))
		if filepath.Base(p.argv[0]) == "cat" && isDescendant(ps, p.pid, server) && isFIFO(fmt.Sprintf("/proc/%d/fd/1", p.pid)) && strings.HasPrefix(out, tmpdir+"/") {
			relays++
			continue
		}
		t.Errorf("process %d %q has files open in TMPDIR: %q", p.pid, p.argv, open)
	}
	piped := 0
	for _, p := range panes {
		if p.pipe {
			piped++
		}
	}
	if relays != piped {
		t.Errorf("%d pipe-pane relays (old versions' taps, cat writing a FIFO in TMPDIR, or the host's taken pipes), want one per open pipe-pane: %d", relays, piped)
	}
}

func checkNoClients(t *testing.T, sock, when string) {
	t.Helper()
	cs, err := listClients(sock)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) > 0 {
		t.Errorf("%s: clients attached: %v (the test attached none)", when, cs)
	}
}

// ---- what must be left after the end -------------------------------------

// A testPane is a pane of the test's with its own remain-on-exit as the
// test set it ("" unset at pane level); exits: its program is ended after
// tmux-mcp and the pane must then close.
type testPane struct {
	id     string
	remain string
	exits  bool
}

// makeTestPanes makes a window per pane running program, one with
// remain-on-exit unset at pane level and one with it off; and as many
// again, whose programs will end, when exits.
func makeTestPanes(t *testing.T, sock string, program []string, exits bool) []testPane {
	var panes []testPane
	for _, ends := range []bool{false, true} {
		if ends && !exits {
			continue
		}
		for _, remain := range []string{"", "off"} {
			p := testPane{id: newPane(t, sock, program...), remain: remain, exits: ends}
			if remain != "" {
				tmuxtest.Run(t, sock, "set-option", "-p", "-t", p.id, "remain-on-exit", remain)
			}
			panes = append(panes, p)
		}
	}
	return panes
}

// cleanState is what must hold once tmux-mcp has ended.
type cleanState struct {
	sock, tmpdir string
	panes        []testPane
	ours         []process // the ended tmux-mcp's descendants, which must be gone
}

// problems lists every way the state is not clean.
func (c cleanState) problems() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	hooks, err := ourHooks(c.sock)
	if err != nil {
		return []string{err.Error()}
	}
	for _, h := range hooks {
		add("hook left: %s", h)
	}
	panes, err := listPanes(c.sock)
	if err != nil {
		return []string{err.Error()}
	}
	for id, p := range panes {
		opts, _ := paneOptions(c.sock, id)
		for k := range opts {
			if strings.HasPrefix(k, ourOptions) {
				add("%s: option %s left", id, k)
			}
		}
		if p.pipe {
			add("%s: pipe-pane left open", id)
		}
	}
	for _, tp := range c.panes {
		p, ok := panes[tp.id]
		switch {
		case tp.exits && ok:
			add("%s: left dead=%v (its program ended while held; it would have closed)", tp.id, p.dead)
		case !tp.exits && !ok:
			add("%s: gone, though its program still ran", tp.id)
		case !tp.exits:
			opts, _ := paneOptions(c.sock, tp.id)
			if got := opts["remain-on-exit"]; got != tp.remain {
				add("%s: remain-on-exit %q at pane level, want %q as the test set it", tp.id, got, tp.remain)
			}
		}
	}
	if cs, _ := listClients(c.sock); len(cs) > 0 {
		add("clients attached: %v", cs)
	}
	if left := tmpdirEntries(c.tmpdir); len(left) > 0 {
		add("left in TMPDIR: %q", left)
	}
	return append(out, processProblems(c.sock, c.tmpdir, c.ours, panes)...)
}

// processProblems lists processes of ours still running: those in ours,
// any with a file open in tmpdir (pane programs aside: what a user's shell
// holds is its own), and any `wait-for` naming sock.
func processProblems(sock, tmpdir string, ours []process, panes map[string]paneInfo) []string {
	if runtime.GOOS != "linux" {
		return nil
	}
	var out []string
	for _, p := range stillAlive(ours) {
		out = append(out, fmt.Sprintf("process of tmux-mcp left: %d %q", p.pid, p.argv))
	}
	ps := processes()
	for _, p := range ps {
		if open := fdsInto(p.pid, tmpdir); len(open) > 0 && !inPane(ps, panes, p.pid) {
			out = append(out, fmt.Sprintf("process %d %q has files open in TMPDIR: %q", p.pid, p.argv, open))
		}
		if isWaitFor(p) && slices.Contains(p.argv, sock) {
			out = append(out, fmt.Sprintf("wait-for left: %d %q", p.pid, p.argv))
		}
		if isTap(p) && slices.Contains(p.argv, sock) {
			out = append(out, fmt.Sprintf("tap left: %d %q", p.pid, p.argv))
		}
	}
	return out
}

// awaitClean waits up to settleBound for c to be clean (processes take a
// moment to die), then reports what is still left.
func awaitClean(t *testing.T, c cleanState, when string) {
	t.Helper()
	for _, p := range c.settle() {
		t.Errorf("%s: %s", when, p)
	}
}

// awaitCleanErr is awaitClean as an error.
func awaitCleanErr(c cleanState) error {
	left := c.settle()
	return boolErr(len(left) == 0, "%q", left)
}

// settle waits up to settleBound for c to be clean and returns what is
// still left.
func (c cleanState) settle() []string {
	var left []string
	poll(settleBound, func() bool { left = c.problems(); return len(left) == 0 })
	return left
}

// runFreshOnce runs a fresh tmux-mcp on sock and tmpdir for one call, as a
// client restarting it would, and waits for it to exit on stdin EOF.
func runFreshOnce(t *testing.T, sock, tmpdir, safety string) {
	t.Helper()
	f := launchMCP(t, sock, tmpdir, "--safety", safety, tapIdle)
	if _, err := f.tool("list_panes", map[string]any{}); err != nil {
		t.Errorf("fresh tmux-mcp: list_panes: %v", err)
	}
	f.CloseInput()
	if !f.awaitExit(replyBound) {
		t.Errorf("fresh tmux-mcp did not exit within %v of stdin EOF", replyBound)
	}
}

// endPaneProgram ends pane's program (by its pid) and waits for tmux to
// see it: the pane dead or gone.
func endPaneProgram(t *testing.T, sock, pane string) {
	t.Helper()
	ps, err := listPanes(sock)
	if err != nil || ps[pane].pid == 0 {
		t.Fatalf("%s: no program to end (%v)", pane, err)
	}
	syscall.Kill(ps[pane].pid, syscall.SIGTERM)
	if !poll(settleBound, func() bool {
		ps, _ := listPanes(sock)
		p, ok := ps[pane]
		return !ok || p.dead
	}) {
		t.Fatalf("%s: still running %v after SIGTERM to its program", pane, settleBound)
	}
}

// checkKillServer checks that kill-server ends the tmux server.
func checkKillServer(t *testing.T, sock string) {
	t.Helper()
	pid := serverPID(t, sock)
	if _, err := tmuxQuery(sock, "kill-server"); err != nil {
		t.Errorf("kill-server: %v", err)
	}
	if !poll(settleBound, func() bool { return !alive(pid) }) {
		t.Errorf("tmux server %d still runs %v after kill-server: %s", pid, settleBound, describeProcess(pid))
	}
}

// TestLeftoverUserHookHoldAfterKill: a user's hook sets remain-on-exit on
// every new pane; a pane split_window makes is held for its exit status
// when tmux-mcp is SIGKILLed. The next start must put back the user's
// remain-on-exit (on), not unset it, and leave the hook as it was.
func TestLeftoverUserHookHoldAfterKill(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmpdir := privateTmpdir(t)
	const hook = "set-option -p remain-on-exit on"
	tmuxtest.Run(t, sock, "set-hook", "-g", "after-split-window", hook)
	m := launchMCP(t, sock, tmpdir, "--safety", "destructive", tapIdle)
	made, err := m.tool("split_window", map[string]any{"paneId": "%0", "argv": []string{"sleep", "1000"}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := made["paneId"].(string)
	m.start("tools/call", map[string]any{"name": "wait_for_exit", "arguments": map[string]any{"paneId": p, "timeoutMs": 30000}})
	awaitInFlight(t, m, sock, p, heldSign)
	if opts, _ := paneOptions(sock, p); opts["remain-on-exit"] != "on" {
		t.Fatalf("%s while held: pane options %v, want remain-on-exit on", p, opts)
	}

	ours := descendants(processes(), m.pid())
	if err := m.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !m.awaitExit(replyBound) {
		t.Fatalf("tmux-mcp still runs %v after SIGKILL", replyBound)
	}
	runFreshOnce(t, sock, tmpdir, "destructive")
	awaitClean(t, cleanState{sock: sock, tmpdir: tmpdir, panes: []testPane{{id: p, remain: "on"}}, ours: ours},
		"after SIGKILL with a hook's remain-on-exit held, and a fresh start")
	if hooks, err := tmuxQuery(sock, "show-hooks", "-g", "after-split-window"); err != nil || !strings.Contains(hooks, "remain-on-exit on") {
		t.Errorf("the user's hook after the fresh start: %q, %v; want it as set", hooks, err)
	}
	checkKillServer(t, sock)
}
