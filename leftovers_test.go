package main

// Tests of what tmux-mcp leaves behind (issue 7). tmux-mcp never attaches a
// client to tmux (a control client mid-handshake crashes every tmux before
// 3.7). While it runs it leaves only these footprints: the pane option
// @tmux-mcp-pipe and an open pipe-pane on a watched pane; the pane option
// @tmux-mcp-hold and a pane-level remain-on-exit on a pane held for its exit
// status; one global pane-died hook entry (tiers mutating and destructive);
// one private directory $TMPDIR/tmux-mcp-<pid>-<random>; `tmux wait-for`
// children; and the `cat` relays that pipe-pane runs. After it ends, however
// it ends, and once a fresh tmux-mcp has started on the same socket, none of
// them is left and every pane's own remain-on-exit is what it was.
//
// Every tmux here is private (tmuxtest.Server: its own socket, -f
// /dev/null, killed at cleanup); every process is signalled by its pid. The
// bounds are generous on purpose: a machine twenty times slower must pass.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

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
	{"SIGTERM", func(m *mcpServer) error { return m.cmd.Process.Signal(syscall.SIGTERM) }},
	{"SIGHUP", func(m *mcpServer) error { return m.cmd.Process.Signal(syscall.SIGHUP) }},
	{"SIGKILL", func(m *mcpServer) error { return m.cmd.Process.Signal(syscall.SIGKILL) }},
	{"stdout-closed", func(m *mcpServer) error {
		// Nobody reads its stdout any more: the reply to this ping is the
		// next write, and it gets SIGPIPE.
		m.stdout.Close()
		m.start("ping", map[string]any{})
		return nil
	}},
	{"stdin-EOF", func(m *mcpServer) error { return m.stdin.Close() }},
}

func testLeftoverAfterKill(t *testing.T, call inFlightCall, kill killMode) {
	sock := tmuxtest.Server(t)
	tmpdir := privateTmpdir(t)
	panes := makeTestPanes(t, sock, call.program, call.exits)
	m := launchMCP(t, sock, tmpdir, "--safety", call.safety)
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
		m.cmd.Process.Kill()
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
			m := launchMCP(t, sock, tmpdir, "--safety", tc.safety)

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
					select {
					case r := <-reply:
						t.Logf("run_shell_command had answered: %s", r)
					default:
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

			m.stdin.Close()
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

	m := launchMCP(t, sock, privateTmpdir(t))
	var replies []<-chan json.RawMessage
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
	m.stdin.Close()
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
	m := launchMCP(t, sock, privateTmpdir(t), "--exit-grace", "4s")
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
	// The program prints what it is sent, then exits 7.
	prog := []string{"sh", "-c", `read x; echo "out-$x"; exit 7`}
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
	exits := map[string]<-chan json.RawMessage{}
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
	// tmux can hear the exit before it has read the program's last output
	// from the terminal (it then draws "Pane is dead" first): the output
	// shows when tmux gets to it.
	var out string
	if !poll(settleBound, func() bool {
		out, _ = tmuxQuery(sock, "capture-pane", "-p", "-t", "%1")
		return strings.Contains(out, "out-go1")
	}) {
		t.Errorf("new %%1 shows %q, want its output out-go1", out)
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
	m := launchMCP(t, sock, tmpdir, "--safety", "destructive")
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
	m.stdin.Close()
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
	entries := tmpdirEntries(tmpdir)
	name := regexp.MustCompile(fmt.Sprintf(`^tmux-mcp-%d-[^/]+$`, pid))
	if len(entries) != 1 || !name.MatchString(entries[0]) {
		t.Errorf("TMPDIR holds %q, want one directory tmux-mcp-%d-<random>", entries, pid)
		return
	}
	dir := filepath.Join(tmpdir, entries[0])
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Errorf("%s: %v", dir, err)
	}
	for _, f := range files {
		if typ := f.Type(); typ != fs.ModeNamedPipe && typ != 0 {
			t.Errorf("%s: %s is %v, want a FIFO or a regular file", dir, f.Name(), typ)
		}
	}
}

// checkProcessFootprints checks the processes: tmux-mcp's children are
// `tmux wait-for` (any other must be a passing command client, gone
// within settleBound), and the processes with a file open in TMPDIR are
// tmux-mcp, the pipe-pane relays (a cat under the tmux server whose stdout
// is a FIFO there; one per open pipe-pane) and pane programs (a shell
// reading a command file).
func checkProcessFootprints(t *testing.T, sock, tmpdir string, pid int) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Log("process checks need /proc: skipped")
		return
	}
	ps := processes()
	var passing []process
	for _, p := range descendants(ps, pid) {
		if !isWaitFor(p) {
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
		if p.pid == pid || isDescendant(ps, p.pid, pid) {
			continue
		}
		open := fdsInto(p.pid, tmpdir)
		if len(open) == 0 || inPane(ps, panes, p.pid) {
			continue
		}
		out, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/1", p.pid))
		if filepath.Base(p.argv[0]) == "cat" && isDescendant(ps, p.pid, server) && isFIFO(out) && strings.HasPrefix(out, tmpdir+"/") {
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
		t.Errorf("%d pipe-pane relays (cat writing a FIFO in TMPDIR), want one per open pipe-pane: %d", relays, piped)
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
	f := launchMCP(t, sock, tmpdir, "--safety", safety)
	if _, err := f.tool("list_panes", map[string]any{}); err != nil {
		t.Errorf("fresh tmux-mcp: list_panes: %v", err)
	}
	f.stdin.Close()
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

// ---- tmux-mcp under test --------------------------------------------------

// An mcpServer is a tmux-mcp process with its own TMPDIR, on raw pipes so
// that a test can close either end or signal it.
type mcpServer struct {
	*stdioClient
	stdout *os.File // the read end of its stdout
	stderr string   // a file
	done   chan struct{}
	eof    chan struct{} // its stdout is read to the end
	// setsNoOptions: a call was seen in flight without its pane option.
	setsNoOptions bool
}

// launchMCP starts tmux-mcp on sock with TMPDIR=tmpdir and initializes it.
// At cleanup it is stopped (stdin EOF, then SIGKILL by pid).
func launchMCP(t *testing.T, sock, tmpdir string, args ...string) *mcpServer {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := filepath.Join(t.TempDir(), "stderr")
	errF, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"-S", sock, "--tmux", tmuxtest.Binary()}, args...)...)
	cmd.Env = append(environWithout("TMUX", "TMUX_PANE", "TMPDIR"), "TMPDIR="+tmpdir)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errF
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errF.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := &mcpServer{
		stdioClient: &stdioClient{cmd: cmd, stdin: inW, next: 1, wait: map[int]chan json.RawMessage{}},
		stdout:      outR, stderr: stderr, done: make(chan struct{}), eof: make(chan struct{}),
	}
	go func() { m.read(outR); close(m.eof) }()
	go func() { cmd.Wait(); close(m.done) }()
	t.Cleanup(func() {
		inW.Close()
		if !m.awaitExit(10 * time.Second) {
			cmd.Process.Kill()
			m.awaitExit(replyBound)
		}
		outR.Close()
	})
	reply := m.start("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "leftovers", "version": "1"}})
	if raw, err := m.reply(reply); err != nil {
		t.Fatalf("initialize: %v: %s", err, m.stderrTail())
	} else if !strings.Contains(string(raw), "protocolVersion") {
		t.Fatalf("initialize: %s", raw)
	}
	m.notify("notifications/initialized")
	return m
}

func (m *mcpServer) pid() int { return m.cmd.Process.Pid }

func (m *mcpServer) exited() bool {
	select {
	case <-m.done:
		return true
	default:
		return false
	}
}

func (m *mcpServer) awaitExit(bound time.Duration) bool {
	select {
	case <-m.done:
		return true
	case <-time.After(bound):
		return false
	}
}

// reply waits for the reply on ch: it fails when stdout ended without it or
// after replyBound.
func (m *mcpServer) reply(ch <-chan json.RawMessage) (json.RawMessage, error) {
	select {
	case r := <-ch:
		return r, nil
	case <-m.eof:
		select { // the reply may be the last line read
		case r := <-ch:
			return r, nil
		default:
			return nil, errors.New("tmux-mcp's stdout ended without a reply")
		}
	case <-time.After(replyBound):
		return nil, fmt.Errorf("no reply within %v", replyBound)
	}
}

var errToolError = errors.New("tool error")

// answer waits for a tool call's reply and returns its structured content;
// an isError result is errToolError.
func (m *mcpServer) answer(tool string, ch <-chan json.RawMessage) (map[string]any, error) {
	raw, err := m.reply(ch)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	return decodeTool(tool, raw)
}

func (m *mcpServer) tool(name string, args map[string]any) (map[string]any, error) {
	return m.answer(name, m.start("tools/call", map[string]any{"name": name, "arguments": args}))
}

func decodeTool(tool string, raw json.RawMessage) (map[string]any, error) {
	var res struct {
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", tool, err, raw)
	}
	if res.IsError {
		return nil, fmt.Errorf("%s: %w: %s", tool, errToolError, raw)
	}
	if res.StructuredContent == nil { // a JSON-RPC error object
		return nil, fmt.Errorf("%s: %s", tool, raw)
	}
	return res.StructuredContent, nil
}

func (m *mcpServer) stderrTail() string {
	b, _ := os.ReadFile(m.stderr)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return "stderr: " + string(b)
}

func environWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			env = append(env, kv)
		}
	}
	return env
}

// privateTmpdir makes a TMPDIR for one tmux-mcp: short (FIFO and socket
// paths) and removed at cleanup.
func privateTmpdir(t testing.TB) string {
	dir, err := os.MkdirTemp("", "tmcp-")
	if err != nil {
		t.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir) // /proc shows fds by their real path
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// tmpdirEntries lists the entries of ours (tmux-mcp-*) in tmpdir.
func tmpdirEntries(tmpdir string) []string {
	entries, _ := os.ReadDir(tmpdir)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "tmux-mcp") {
			out = append(out, e.Name())
		}
	}
	return out
}

// ---- tmux queries ---------------------------------------------------------

// tmuxQuery runs tmux on sock and returns its output without the final
// newline. Unlike tmuxtest.Run it never fails the test, so pollers and
// goroutines can use it.
func tmuxQuery(sock string, args ...string) (string, error) {
	cmd := exec.Command(tmuxtest.Binary(), append([]string{"-u", "-S", sock, "-f", "/dev/null"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return strings.TrimRight(string(out), "\n"), nil
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// newPane makes a detached window in session main running argv and returns
// its pane id.
func newPane(t *testing.T, sock string, argv ...string) string {
	t.Helper()
	out := tmuxtest.Run(t, sock, append([]string{"new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:"}, argv...)...)
	return strings.TrimSpace(out)
}

func serverPID(t testing.TB, sock string) int {
	t.Helper()
	out := tmuxtest.Run(t, sock, "display", "-p", "#{pid}")
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("server pid %q: %v", out, err)
	}
	return pid
}

func windowSize(t *testing.T, sock, target string) string {
	t.Helper()
	return strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", target, "#{window_width}x#{window_height}"))
}

// windowSizes maps each window id to its size, WxH.
func windowSizes(sock string) (map[string]string, error) {
	out, err := tmuxQuery(sock, "list-windows", "-a", "-F", "#{window_id} #{window_width}x#{window_height}")
	if err != nil {
		return nil, err
	}
	sizes := map[string]string{}
	for _, l := range lines(out) {
		id, size, _ := strings.Cut(l, " ")
		sizes[id] = size
	}
	return sizes, nil
}

type paneInfo struct {
	pipe, dead bool
	command    string
	pid        int
}

// listPanes describes every pane of the server, by id.
func listPanes(sock string) (map[string]paneInfo, error) {
	out, err := tmuxQuery(sock, "list-panes", "-a", "-F", "#{pane_id}\t#{pane_pipe}\t#{pane_dead}\t#{pane_current_command}\t#{pane_pid}")
	if err != nil {
		return nil, err
	}
	panes := map[string]paneInfo{}
	for _, l := range lines(out) {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("list-panes line %q", l)
		}
		pid, _ := strconv.Atoi(f[4])
		panes[f[0]] = paneInfo{pipe: f[1] == "1", dead: f[2] == "1", command: f[3], pid: pid}
	}
	return panes, nil
}

// paneOptions returns the options set at pane level on pane (inherited
// ones not included), name to value.
func paneOptions(sock, pane string) (map[string]string, error) {
	out, err := tmuxQuery(sock, "show-options", "-p", "-t", pane)
	if err != nil {
		return nil, err
	}
	opts := map[string]string{}
	for _, l := range lines(out) {
		name, value, _ := strings.Cut(l, " ")
		opts[name] = strings.Trim(value, `"'`)
	}
	return opts, nil
}

// globalHooks lists the global hooks. `show-hooks -g` alone lists only
// session hooks: pane-died and the other pane and window hooks are global
// window options, which `show-hooks -gw` lists.
func globalHooks(sock string) (string, error) {
	session, err := tmuxQuery(sock, "show-hooks", "-g")
	if err != nil {
		return "", err
	}
	window, err := tmuxQuery(sock, "show-hooks", "-g", "-w")
	if err != nil {
		return "", err
	}
	return session + "\n" + window, nil
}

// ourHooks returns the global hook entries that mention tmux-mcp.
func ourHooks(sock string) ([]string, error) {
	out, err := globalHooks(sock)
	if err != nil {
		return nil, err
	}
	var hooks []string
	for _, l := range lines(out) {
		if strings.Contains(l, "tmux-mcp") {
			hooks = append(hooks, l)
		}
	}
	return hooks, nil
}

type tmuxClient struct {
	pid           int
	name, session string
}

func listClients(sock string) ([]tmuxClient, error) {
	out, err := tmuxQuery(sock, "list-clients", "-F", "#{client_pid}\t#{client_name}\t#{session_name}")
	if err != nil {
		return nil, err
	}
	var cs []tmuxClient
	for _, l := range lines(out) {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("list-clients line %q", l)
		}
		pid, _ := strconv.Atoi(f[0])
		cs = append(cs, tmuxClient{pid: pid, name: f[1], session: f[2]})
	}
	return cs, nil
}

// ---- processes (/proc) -----------------------------------------------------

// A process as /proc shows it; start (its start time) tells it from a
// later process that reuses the pid.
type process struct {
	pid, ppid int
	start     string
	zombie    bool
	argv      []string
}

// processes lists the live processes (nil where there is no /proc).
func processes() map[int]process {
	entries, _ := os.ReadDir("/proc")
	ps := map[int]process{}
	for _, e := range entries {
		if p, ok := readProcess(e.Name()); ok && !p.zombie {
			ps[p.pid] = p
		}
	}
	return ps
}

func readProcess(pidText string) (process, bool) {
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		return process{}, false
	}
	stat, err := os.ReadFile("/proc/" + pidText + "/stat")
	if err != nil {
		return process{}, false
	}
	// The command name in parentheses may hold spaces: fields follow the last ')'.
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return process{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	cmdline, _ := os.ReadFile("/proc/" + pidText + "/cmdline")
	argv := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	return process{pid: pid, ppid: ppid, start: f[19], zombie: f[0] == "Z", argv: argv}, true
}

func isDescendant(ps map[int]process, pid, root int) bool {
	for p, ok := ps[pid]; ok && p.ppid > 1; p, ok = ps[p.ppid] {
		if p.ppid == root {
			return true
		}
	}
	return false
}

func descendants(ps map[int]process, root int) []process {
	var out []process
	for _, p := range ps {
		if isDescendant(ps, p.pid, root) {
			out = append(out, p)
		}
	}
	return out
}

// stillAlive returns those of ps that still run (same pid, same start).
func stillAlive(ps []process) []process {
	var out []process
	for _, p := range ps {
		if now, ok := readProcess(strconv.Itoa(p.pid)); ok && !now.zombie && now.start == p.start {
			out = append(out, p)
		}
	}
	return out
}

func alive(pid int) bool {
	if runtime.GOOS == "linux" {
		p, ok := readProcess(strconv.Itoa(pid))
		return ok && !p.zombie
	}
	return syscall.Kill(pid, 0) == nil
}

// describeProcess says what pid is doing and what runs under it, for a
// failure message.
func describeProcess(pid int) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", pid))
	var children []string
	for _, p := range descendants(processes(), pid) {
		children = append(children, fmt.Sprintf("%d %q", p.pid, p.argv))
	}
	return fmt.Sprintf("stat %q, wchan %q, descendants %v", strings.TrimSpace(string(stat)), wchan, children)
}

// inPane reports whether pid is a pane's program or runs under one.
func inPane(ps map[int]process, panes map[string]paneInfo, pid int) bool {
	for _, p := range panes {
		if p.pid == pid || isDescendant(ps, pid, p.pid) {
			return true
		}
	}
	return false
}

func isWaitFor(p process) bool {
	return len(p.argv) > 0 && strings.HasPrefix(filepath.Base(p.argv[0]), "tmux") && slices.Contains(p.argv, "wait-for")
}

// fdsInto returns what pid's open files inside dir are.
func fdsInto(pid int, dir string) []string {
	fdDir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, _ := os.ReadDir(fdDir)
	var out []string
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join(fdDir, e.Name()))
		if err == nil && (target == dir || strings.HasPrefix(target, dir+"/")) {
			out = append(out, target)
		}
	}
	return out
}

func isFIFO(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&fs.ModeNamedPipe != 0
}

// boolErr is nil when ok, else the error that format says.
func boolErr(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// poll calls cond until it is true or bound has passed, and reports
// whether it became true.
func poll(bound time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// skipIfShort skips the slow leftover tests (about a minute together) under -short.
func skipIfShort(t *testing.T) {
	if testing.Short() {
		t.Skip("leftover tests are slow; run without -short")
	}
}
