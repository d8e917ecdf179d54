package e2e

// TestStress drives four tmux-mcp instances hard on a private tmux that is
// busy the
// way a person's is: sessions whose panes print now and then, ordinary
// clients attaching and detaching on a pty, another client making, renaming
// and killing windows. It is the load under which a control client crashes
// tmux < 3.7 (issue 7). It asserts that the tmux server never changes (no
// crash), that every call gets its reply within a generous bound, and that
// once tmux-mcp has exited the hooks and clients are as they were before.
// The instances share the panes' taps: every instance waits on every
// ticking pane, and each capture_since continues, in the next instance,
// the cursor the last one returned.
//
// TMUX_MCP_STRESS_SECONDS sets how long it runs (default 10; CI runs 60).
// scripts/stress.sh runs it.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

func TestStress(t *testing.T) {
	seconds := stressSeconds(t)
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("needs script(1) to attach clients on a pty")
	}
	sock := tmuxtest.Server(t)
	tickers, quiet := makeStressSessions(t, sock, 8)
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "churn", "-x", "80", "-y", "24", "cat")
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "mcp", "-x", "80", "-y", "24", "cat")
	mcpSession := strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", "mcp:", "#{session_id}"))

	serverPid := serverPID(t, sock)
	hooksBefore, err := globalHooks(sock)
	if err != nil {
		t.Fatal(err)
	}
	clientsBefore := tmuxtest.Run(t, sock, "list-clients")
	tmpdir := privateTmpdir(t)
	const instances = 4
	var ms []*mcpServer
	for range instances {
		ms = append(ms, launchMCP(t, sock, tmpdir, "--safety", "destructive", tapIdle)) // taps end 3 s after the last
	}
	m := ms[0]

	k := &tally{t: t}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
	defer cancel()
	var background sync.WaitGroup
	background.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			k.check("attach and detach a client", attachOnce(sock, fmt.Sprintf("s%d", i%8), i%2 == 0))
		}
	})
	background.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			k.check("make, rename and kill a window", churnWindow(sock, i))
			time.Sleep(10 * time.Millisecond) // leave the CPU to the rest
		}
	})

	cursors := &cursorBook{m: map[string]string{}}
	var rounds, roundsFailed int
	for round := 0; ctx.Err() == nil; round++ {
		var failed atomic.Bool
		record := func(what string, err error) {
			if err != nil {
				failed.Store(true)
			}
			k.check(fmt.Sprintf("round %d: %s", round, what), err)
		}
		var calls sync.WaitGroup
		do := func(what string, f func() error) { calls.Go(func() { record(what, f()) }) }
		for n, mi := range ms {
			for _, p := range tickers {
				// "tick 3" matches tick 3, 30-39, 300-399...: sometimes in time.
				pattern := fmt.Sprintf("tick %d", 1+rand.IntN(9))
				timeout := 200 + rand.IntN(1300)
				do(fmt.Sprintf("instance %d: wait_for_text %s", n, p), func() error { return waitForTick(mi, p, pattern, timeout) })
			}
		}
		for i, p := range quiet {
			do("wait_for_text "+p, func() error { return waitInVain(ms[(round+i)%instances], p, round) })
		}
		for i := range 4 {
			p := tickers[(round*4+i)%len(tickers)]
			mi := ms[(round+i)%instances]
			do("capture_since "+p, func() error { return cursors.capture(mi, p) })
		}
		do("list_panes", func() error { return listPanesAtLeast(ms[round%instances], 2*len(tickers)) })
		do("create_window and kill_window", func() error { return makeAndKillWindow(m, mcpSession, round) })
		calls.Wait()

		crashed := samePID(sock, serverPid)
		record("tmux server unchanged", crashed)
		for _, mi := range ms {
			record("no client of tmux-mcp", noClientOf(sock, mi.pid()))
		}
		rounds++
		if failed.Load() {
			roundsFailed++
		}
		if crashed != nil {
			cancel() // nothing more to learn
		}
	}
	cancel()
	background.Wait()

	for _, mi := range ms {
		mi.CloseInput()
	}
	for _, mi := range ms {
		k.check("tmux-mcp exits on stdin EOF", boolErr(mi.awaitExit(replyBound), "still running %v after stdin EOF", replyBound))
	}
	crashed := samePID(sock, serverPid)
	k.check("tmux server unchanged at the end", crashed)
	if crashed == nil {
		k.check("hooks as before tmux-mcp", settlesTo(func() (string, error) { return globalHooks(sock) }, hooksBefore))
		k.check("clients as before tmux-mcp", settlesTo(func() (string, error) { return tmuxQuery(sock, "list-clients") }, clientsBefore))
		k.check("nothing of tmux-mcp left", awaitCleanErr(cleanState{sock: sock, tmpdir: tmpdir}))
	}

	t.Logf("rounds: %d passed, %d failed", rounds-roundsFailed, roundsFailed)
	t.Logf("%d passed, %d failed", k.passes(), k.failures())
	if rounds == 0 {
		t.Error("no round ran")
	}
}

// stressSeconds is how long TestStress runs; under -short it runs only when
// asked for.
func stressSeconds(t *testing.T) int {
	env := os.Getenv("TMUX_MCP_STRESS_SECONDS")
	if env == "" {
		if testing.Short() {
			t.Skip("stress test: set TMUX_MCP_STRESS_SECONDS to run it under -short")
		}
		return 10
	}
	n, err := strconv.Atoi(env)
	if err != nil || n <= 0 {
		t.Fatalf("TMUX_MCP_STRESS_SECONDS=%q: want a positive number of seconds", env)
	}
	return n
}

// makeStressSessions makes n sessions s0..sN-1, each with a pane that
// prints a numbered tick now and then and a quiet shell, and returns their
// pane ids.
func makeStressSessions(t *testing.T, sock string, n int) (tickers, quiet []string) {
	for i := range n {
		s := fmt.Sprintf("s%d", i)
		ticker := fmt.Sprintf(`i=0; while :; do i=$((i+1)); echo "tick $i"; sleep 0.%d; done`, 2+i%7)
		tmuxtest.Run(t, sock, "new-session", "-d", "-s", s, "-x", "80", "-y", "24", "sh", "-c", ticker)
		tickers = append(tickers, strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", s+":", "#{pane_id}")))
		out := tmuxtest.Run(t, sock, "split-window", "-d", "-P", "-F", "#{pane_id}", "-t", s+":", "sh")
		quiet = append(quiet, strings.TrimSpace(out))
	}
	return tickers, quiet
}

// A tally counts checks; a failed one is reported (the first few in
// full) and fails the test.
type tally struct {
	t              *testing.T
	mu             sync.Mutex
	passed, failed int
}

func (k *tally) check(what string, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if err == nil {
		k.passed++
		return
	}
	k.failed++
	if k.failed <= 30 {
		k.t.Errorf("%s: %v", what, err)
	} else {
		k.t.Fail()
	}
}

func (k *tally) passes() int   { k.mu.Lock(); defer k.mu.Unlock(); return k.passed }
func (k *tally) failures() int { k.mu.Lock(); defer k.mu.Unlock(); return k.failed }

// ---- the calls of a round ---------------------------------------------------

// waitForTick waits for a tick that may or may not come in time: either is
// right, nothing else is.
func waitForTick(m *mcpServer, pane, pattern string, timeoutMs int) error {
	out, err := m.tool("wait_for_text", map[string]any{"paneId": pane, "patterns": []string{pattern}, "timeoutMs": timeoutMs})
	if err != nil {
		return err
	}
	switch out["outcome"] {
	case "matched":
		if got, _ := out["matched"].(string); !strings.Contains(got, pattern) {
			return fmt.Errorf("matched %q, want text containing %q", got, pattern)
		}
	case "timed_out":
	default:
		return fmt.Errorf("outcome %v, want matched or timed_out (%v)", out["outcome"], out)
	}
	return nil
}

// waitInVain waits on a quiet pane for text nobody prints.
func waitInVain(m *mcpServer, pane string, round int) error {
	raw, err := m.reply(m.startTool("wait_for_text", map[string]any{"paneId": pane,
		"patterns": []string{fmt.Sprintf("nobody prints %d", round)}, "timeoutMs": 300}))
	if err != nil {
		return err
	}
	out, err := decodeTool("wait_for_text", raw)
	if err != nil {
		return err
	}
	// The whole reply on a miss: its text holds the note that says why.
	return boolErr(out["outcome"] == "timed_out", "outcome %v, want timed_out: %s", out["outcome"], raw)
}

func listPanesAtLeast(m *mcpServer, n int) error {
	out, err := m.tool("list_panes", map[string]any{})
	if err != nil {
		return err
	}
	panes, _ := out["panes"].([]any)
	return boolErr(len(panes) >= n, "%d panes, want at least %d", len(panes), n)
}

// makeAndKillWindow makes a window of tmux-mcp's own and kills it.
func makeAndKillWindow(m *mcpServer, session string, round int) error {
	made, err := m.tool("create_window", map[string]any{"sessionId": session,
		"argv": []string{"sleep", "1000"}, "name": fmt.Sprintf("mcp-%d", round)})
	if err != nil {
		return err
	}
	w, _ := made["windowId"].(string)
	killed, err := m.tool("kill_window", map[string]any{"windowId": w})
	if err != nil {
		return err
	}
	return boolErr(killed["windowId"] == w, "kill_window %s answered %v", w, killed)
}

// A cursorBook keeps each pane's capture_since cursor between rounds.
type cursorBook struct {
	mu sync.Mutex
	m  map[string]string
}

// capture reads pane from its last cursor and checks the accounting: the
// stream advanced by exactly the bytes missed, omitted and returned.
func (b *cursorBook) capture(m *mcpServer, pane string) error {
	b.mu.Lock()
	from := b.m[pane]
	b.mu.Unlock()
	args := map[string]any{"paneId": pane, "waitMs": 200}
	if from != "" {
		args["cursor"] = from
	}
	out, err := m.tool("capture_since", args)
	if err != nil {
		// The next round starts afresh: one refused cursor is one failure.
		b.mu.Lock()
		delete(b.m, pane)
		b.mu.Unlock()
		return err
	}
	to, _ := out["cursor"].(string)
	b.mu.Lock()
	b.m[pane] = to
	b.mu.Unlock()
	if from == "" || to == "" {
		return nil
	}
	fromGen, fromOff, err1 := splitCursor(from)
	toGen, toOff, err2 := splitCursor(to)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("cursors %q -> %q", from, to)
	}
	if fromGen != toGen {
		return nil // a new stream: offsets do not compare
	}
	missed, _ := out["missedBytes"].(float64)
	omitted, _ := out["omittedBytes"].(float64)
	text, _ := out["text"].(string)
	if got := int64(missed) + int64(omitted) + int64(len(text)); toOff-fromOff != got {
		return fmt.Errorf("cursor advanced %d bytes, but missed %v + omitted %v + text %d = %d", toOff-fromOff, missed, omitted, len(text), got)
	}
	return nil
}

// splitCursor splits ltxc1.<generation>.<offset>.
func splitCursor(c string) (gen string, off int64, err error) {
	i := strings.LastIndexByte(c, '.')
	if !strings.HasPrefix(c, "ltxc1.") || i < 0 {
		return "", 0, fmt.Errorf("cursor %q", c)
	}
	off, err = strconv.ParseInt(c[i+1:], 10, 64)
	return c[:i], off, err
}

// ---- checks on tmux ---------------------------------------------------------

func samePID(sock string, want int) error {
	out, err := tmuxQuery(sock, "display", "-p", "#{pid}")
	if err != nil {
		return fmt.Errorf("the tmux server (pid %d) does not answer: %v", want, err)
	}
	return boolErr(out == strconv.Itoa(want), "tmux server pid %s, was %d: it crashed and another started", out, want)
}

// noClientOf checks that no attached client runs under tmux-mcp.
func noClientOf(sock string, pid int) error {
	cs, err := listClients(sock)
	if err != nil {
		return err
	}
	ps := processes()
	for _, c := range cs {
		if isDescendant(ps, c.pid, pid) {
			return fmt.Errorf("client %s (pid %d) of tmux-mcp attached to %s", c.name, c.pid, c.session)
		}
	}
	return nil
}

// settlesTo polls query until it answers want (clients take a moment to go).
func settlesTo(query func() (string, error), want string) error {
	want = strings.TrimRight(want, "\n")
	var got string
	var err error
	if poll(settleBound, func() bool { got, err = query(); return err == nil && got == want }) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("got %q, want %q", got, want)
}

// ---- the other users of the tmux server ------------------------------------

// attachOnce attaches an ordinary client to session on a pty, keeps it a
// moment, and detaches it: with detach-client when viaTmux, else by
// ending the script(1) that holds its pty.
func attachOnce(sock, session string, viaTmux bool) error {
	line := fmt.Sprintf("exec %s -S %s attach -t %s", shellQuote(tmuxtest.Binary()), shellQuote(sock), session)
	cmd := exec.Command("script", "-qfc", line, "/dev/null")
	cmd.Env = append(environWithout("TMUX", "TMUX_PANE", "TERM"), "TERM=xterm-256color")
	stdin, err := cmd.StdinPipe() // held open: script would end at its EOF
	if err != nil {
		return err
	}
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	end := func() error { // by pid, then wait for it
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
			return nil
		case <-time.After(settleBound):
			cmd.Process.Kill()
			<-done
			return fmt.Errorf("script %d ignored SIGTERM for %v", cmd.Process.Pid, settleBound)
		}
	}

	var client tmuxClient
	if !poll(inFlightBound, func() bool {
		select {
		case <-done: // it could not attach
			return true
		default:
		}
		cs, _ := listClients(sock)
		ps := processes()
		for _, c := range cs {
			if c.session == session && isDescendant(ps, c.pid, cmd.Process.Pid) {
				client = c
				return true
			}
		}
		return false
	}) {
		end()
		return fmt.Errorf("no client attached to %s within %v", session, inFlightBound)
	}
	if client.pid == 0 {
		return fmt.Errorf("script ended before its client attached to %s", session)
	}
	time.Sleep(time.Duration(50+rand.IntN(250)) * time.Millisecond) // attached a while: load, not a check

	if viaTmux {
		if _, err := tmuxQuery(sock, "detach-client", "-t", client.name); err != nil {
			end()
			return err
		}
		select {
		case <-done:
		case <-time.After(settleBound):
			end()
			return fmt.Errorf("client %s still attached %v after detach-client", client.name, settleBound)
		}
	} else if err := end(); err != nil {
		return err
	}
	if !poll(settleBound, func() bool { return !alive(client.pid) }) {
		syscall.Kill(client.pid, syscall.SIGKILL)
		return fmt.Errorf("tmux client %d outlived its pty", client.pid)
	}
	return nil
}

// churnWindow makes a window in session churn, renames it and kills it.
func churnWindow(sock string, i int) error {
	w, err := tmuxQuery(sock, "new-window", "-d", "-P", "-F", "#{window_id}", "-t", "churn:", "sleep", "1000")
	if err != nil {
		return err
	}
	if _, err := tmuxQuery(sock, "rename-window", "-t", w, fmt.Sprintf("churn-%d", i)); err != nil {
		return err
	}
	_, err = tmuxQuery(sock, "kill-window", "-t", w)
	return err
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
