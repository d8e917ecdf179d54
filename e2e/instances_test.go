package e2e

// Tests of several tmux-mcp processes on one tmux server (issue 20): a
// watched pane's output comes from its tap, which every instance of the
// user reads, so every instance's waits see it and a cursor is the tap's,
// valid in every instance and across a restart. Every tmux is private;
// every process is signalled by its pid.

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// printLine types a command that prints word without the word itself
// standing in the typed line, so only the output can match it.
func printLine(t *testing.T, sock, pane, word string) {
	t.Helper()
	half := len(word) / 2
	tmuxtest.Run(t, sock, "send-keys", "-t", pane, fmt.Sprintf("printf '%%s%%s\\n' '%s' '%s'", word[:half], word[half:]), "Enter")
}

// cursorOf takes a cursor at the end of pane's stream in m.
func cursorOf(t *testing.T, m *mcpServer, pane string) string {
	t.Helper()
	out := m.mustTool(t, "capture_since", map[string]any{"paneId": pane})
	c, _ := out["cursor"].(string)
	if c == "" {
		t.Fatalf("capture_since on %s: no cursor: %v", pane, out)
	}
	return c
}

// generation is a cursor's stream generation.
func generation(cursor string) string {
	f := strings.Split(cursor, ".")
	if len(f) != 3 {
		return cursor
	}
	return f[1]
}

func waitArgs(pane, cursor, word string) map[string]any {
	return map[string]any{"paneId": pane, "cursor": cursor, "patterns": []string{word}, "timeoutMs": 30000}
}

func TestInstancesShareAPane(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	ms := []*mcpServer{
		launchMCP(t, sock, "", "--safety", "destructive"),
		launchMCP(t, sock, "", "--safety", "destructive"),
		launchMCP(t, sock, "", "--safety", "destructive"),
	}

	t.Run("three waits on one pane all match", func(t *testing.T) {
		pane := newPane(t, sock, "sh")
		var ids []string
		gens := map[string]bool{}
		for _, m := range ms {
			c := cursorOf(t, m, pane)
			gens[generation(c)] = true
			ids = append(ids, m.startTool("wait_for_text", waitArgs(pane, c, "three-waits")))
		}
		if len(gens) != 1 {
			t.Errorf("the instances read %d streams of %s, want the one tap's: %v", len(gens), pane, gens)
		}
		printLine(t, sock, pane, "three-waits")
		for i, m := range ms {
			out := m.mustAnswer(t, "wait_for_text", ids[i])
			if out["outcome"] != "matched" {
				t.Errorf("instance %d: outcome %v, want matched: %v", i, out["outcome"], out)
			}
		}
	})

	t.Run("a cursor of A continues in B", func(t *testing.T) {
		pane := newPane(t, sock, "sh")
		c := cursorOf(t, ms[0], pane)
		printLine(t, sock, pane, "from-a-to-b")
		out := ms[1].mustTool(t, "wait_for_text", waitArgs(pane, c, "from-a-to-b"))
		if out["outcome"] != "matched" || out["missedBytes"] != float64(0) {
			t.Errorf("B from A's cursor: outcome %v missedBytes %v, want matched and 0: %v", out["outcome"], out["missedBytes"], out)
		}
	})

	t.Run("B's shell command, then A's, each with its own output and status", func(t *testing.T) {
		pane := newPane(t, sock, "sh")
		c := cursorOf(t, ms[0], pane) // A watches the pane
		waiting := ms[0].startTool("wait_for_text", waitArgs(pane, c, "never-printed-9c1"))
		b := ms[1].mustTool(t, "run_shell_command", map[string]any{"paneId": pane, "command": "echo from-b; (exit 3)", "timeoutMs": 30000})
		if b["outcome"] != "completed" || b["exitStatus"] != float64(3) || !strings.Contains(fmt.Sprint(b["output"]), "from-b") {
			t.Errorf("B's command: %v", b)
		}
		a := ms[0].mustTool(t, "run_shell_command", map[string]any{"paneId": pane, "command": "echo from-a", "timeoutMs": 30000})
		if a["outcome"] != "completed" || a["exitStatus"] != float64(0) || !strings.Contains(fmt.Sprint(a["output"]), "from-a") || strings.Contains(fmt.Sprint(a["output"]), "from-b") {
			t.Errorf("A's command: %v", a)
		}
		ms[0].CloseInput() // ends A's wait; A is not used again
		ms[0].reply(waiting)
	})

	t.Run("a SIGKILLed instance leaves another's wait unharmed", func(t *testing.T) {
		pane := newPane(t, sock, "sh")
		cb := cursorOf(t, ms[2], pane)
		cc := cursorOf(t, ms[1], pane)
		ms[1].startTool("wait_for_text", waitArgs(pane, cc, "after-the-kill"))
		waiting := ms[2].startTool("wait_for_text", waitArgs(pane, cb, "after-the-kill"))
		if err := ms[1].Cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		ms[1].awaitExit(replyBound)
		printLine(t, sock, pane, "after-the-kill")
		out := ms[2].mustAnswer(t, "wait_for_text", waiting)
		if out["outcome"] != "matched" {
			t.Errorf("the surviving wait: %v", out)
		}
	})

	t.Run("a cursor survives its instance's restart", func(t *testing.T) {
		pane := newPane(t, sock, "sh")
		c := cursorOf(t, ms[2], pane)
		ms[2].CloseInput()
		if !ms[2].awaitExit(replyBound) {
			t.Fatal("tmux-mcp did not exit on stdin EOF")
		}
		printLine(t, sock, pane, "while-restarting")
		again := launchMCP(t, sock, "", "--safety", "destructive")
		out := again.mustTool(t, "wait_for_text", waitArgs(pane, c, "while-restarting"))
		if out["outcome"] != "matched" || out["missedBytes"] != float64(0) {
			t.Errorf("the restarted instance from the old cursor: %v", out)
		}
	})
}

// A pane the user pipes keeps the user's pipe: run_shell_command there is
// refused with an error that names the pipe and what to do, and the pipe
// goes on receiving everything the pane prints.
func TestInstancesLeaveTheUsersPipe(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	m := launchMCP(t, sock, "", "--safety", "destructive")
	pane := newPane(t, sock, "sh")
	logFile := t.TempDir() + "/my.log"
	tmuxtest.Run(t, sock, "pipe-pane", "-t", pane, "cat >> "+logFile)
	_, err := m.tool("run_shell_command", map[string]any{"paneId": pane, "command": "echo hi", "timeoutMs": 10000})
	if err == nil || !strings.Contains(err.Error(), "a pipe-pane that is not tmux-mcp's") || !strings.Contains(err.Error(), "tmux pipe-pane -t "+pane) {
		t.Errorf("run_shell_command on the user's piped pane: %v, want a refusal naming the pipe and how to close it", err)
	}
	printLine(t, sock, pane, "still-logged")
	if !poll(settleBound, func() bool {
		b, _ := os.ReadFile(logFile)
		return strings.Contains(string(b), "still-logged")
	}) {
		t.Errorf("the user's pipe did not receive the pane's output")
	}
	if p, _ := listPanes(sock); !p[pane].pipe {
		t.Errorf("%s: the user's pipe is gone", pane)
	}
	if mark := strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", pane, "#{"+pipeOption+"}")); mark != "" {
		t.Errorf("%s: marked %q, but the pipe is the user's", pane, mark)
	}
}

// A program run_program runs in A (gated: its shell waits for A's ack of
// its exit marker) is read through its tap, so B can watch it; only A
// acks, and A still gets all of its output and its status.
func TestInstancesWatchARunProgram(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	a := launchMCP(t, sock, "", "--safety", "destructive")
	b := launchMCP(t, sock, "", "--safety", "destructive")
	running := a.startTool("run_program", map[string]any{"timeoutMs": 30000, "argv": []string{"sh", "-c",
		`printf 'gated-%s\n' start; "$0" -S "$1" wait-for gated-go; printf 'gated-%s\n' end; exit 7`, tmuxtest.Binary(), sock}})
	var pane string
	if !poll(settleBound, func() bool {
		out, _ := exec.Command(tmuxtest.Binary(), "-S", sock, "list-panes", "-a", "-F", "#{pane_id} #{pane_start_command}").Output()
		for _, line := range strings.Split(string(out), "\n") {
			if id, cmd, _ := strings.Cut(line, " "); strings.Contains(cmd, "gated-go") {
				pane = id
			}
		}
		return pane != ""
	}) {
		t.Fatal("run_program's pane never appeared")
	}
	seen := b.mustTool(t, "capture_since", map[string]any{"paneId": pane, "waitMs": 10000})
	if seen["streaming"] != true {
		t.Fatalf("B on run_program's pane %s: %v, want its tap's stream", pane, seen)
	}
	c, _ := seen["cursor"].(string)
	waiting := b.startTool("wait_for_text", waitArgs(pane, c, "gated-end"))
	tmuxtest.Run(t, sock, "wait-for", "-S", "gated-go")
	if out := b.mustAnswer(t, "wait_for_text", waiting); out["outcome"] != "matched" {
		t.Errorf("B's wait on run_program's pane: %v", out)
	}
	out := a.mustAnswer(t, "run_program", running)
	if out["exitStatus"] != float64(7) || out["output"] != "gated-start\ngated-end\n" || out["missedBytes"] != float64(0) {
		t.Errorf("A's run_program: %v, want status 7 and all its output", out)
	}
}

// TestInstancesHoldANewPaneTogether: B waits for the exit of a pane that
// A's split_window has just made and still holds while it checks that
// the program started. A's release at the end of its check must leave
// B's hold in place, so B gets the program's exit status; once B's exit
// grace is over the pane closes, as it would have, and nothing of either
// is left on it.
// (Before B took such a brief hold over, A's release left the pane to close
// at its program's exit, and B answered outcome gone with no status.)
func TestInstancesHoldANewPaneTogether(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	a := launchMCP(t, sock, "", "--safety", "destructive", "--start-grace", "2s")
	b := launchMCP(t, sock, "", "--safety", "destructive", "--exit-grace", "1s")
	split := a.start("tools/call", map[string]any{"name": "split_window", "arguments": map[string]any{
		"paneId": "%0", "argv": []string{"sh", "-c", "read x; exit 4"}}})
	if !poll(inFlightBound, func() bool { ps, _ := listPanes(sock); _, ok := ps["%1"]; return ok }) {
		t.Fatal("split_window made no pane %1")
	}
	wait := b.start("tools/call", map[string]any{"name": "wait_for_exit", "arguments": map[string]any{"paneId": "%1", "timeoutMs": 30000}})
	if out, err := a.answer("split_window", split); err != nil || out["paneId"] != "%1" {
		t.Fatalf("split_window: %v %v, want pane %%1 started", out, err)
	}
	if opts, _ := paneOptions(sock, "%1"); opts[holdOption] == "" || opts["remain-on-exit"] != "on" {
		t.Errorf("%%1 after A's start check, with B's wait in flight: options %v, want B's hold", opts)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "go", "Enter")
	if out, err := b.answer("wait_for_exit", wait); err != nil || out["outcome"] != "completed" || out["exitStatus"] != float64(4) {
		t.Fatalf("B's wait_for_exit: %v %v, want completed with status 4", out, err)
	}
	if !poll(settleBound, func() bool { ps, _ := listPanes(sock); _, ok := ps["%1"]; return !ok }) {
		opts, _ := paneOptions(sock, "%1")
		t.Errorf("%%1 still there %v after B's exit grace (options %v); with remain-on-exit unset it would have closed", settleBound, opts)
	}
}

// TestInstancesShareALongHold: A and B both wait for the exit of a pane
// neither made. A held it first; its wait ends (timed out) and its exit
// grace runs out while B still waits. A must hand its hold to B, not put
// the user's remain-on-exit back, so B gets the program's exit status;
// after B's grace the pane closes, as it would have, with no option of
// either left. (Before, A's release let the pane close at its program's
// exit and B answered gone with no status.)
func TestInstancesShareALongHold(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "read x; exit 5")
	a := launchMCP(t, sock, "", "--exit-grace", "300ms")
	b := launchMCP(t, sock, "", "--exit-grace", "300ms")
	first, second := coHeld(t, sock, a, b, 1500)
	if out := a.mustAnswer(t, "wait_for_exit", first); out["outcome"] != "timed_out" {
		t.Fatalf("A's wait_for_exit: %v, want timed_out", out)
	}
	time.Sleep(time.Second) // A's exit grace ends: its hold is released
	if opts, _ := paneOptions(sock, "%1"); opts[holdOption] == "" || opts["remain-on-exit"] != "on" {
		t.Errorf("%%1 after A's release, with B's wait in flight: options %v, want a hold of B's", opts)
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "go", "Enter")
	if out := b.mustAnswer(t, "wait_for_exit", second); out["outcome"] != "completed" || out["exitStatus"] != float64(5) {
		t.Fatalf("B's wait_for_exit: %v, want completed with status 5", out)
	}
	awaitClosedAfterGrace(t, sock, "%1")
}

// TestInstancesLeaveALongHold is the other order: B joins A's hold and
// its wait ends first. A's hold stays, A gets the status, and once A's
// grace is over nothing of B's or A's is left on the pane.
func TestInstancesLeaveALongHold(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "read x; exit 6")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%1", "remain-on-exit", "on") // the user's own, kept open
	a := launchMCP(t, sock, "", "--exit-grace", "300ms")
	b := launchMCP(t, sock, "", "--exit-grace", "300ms")
	first := a.startTool("wait_for_exit", map[string]any{"paneId": "%1", "timeoutMs": 30000})
	if !poll(inFlightBound, func() bool { opts, _ := paneOptions(sock, "%1"); return opts[holdOption] != "" }) {
		t.Fatal("A's wait never held %1")
	}
	if out := b.mustTool(t, "wait_for_exit", map[string]any{"paneId": "%1", "timeoutMs": 500}); out["outcome"] != "timed_out" {
		t.Fatalf("B's wait_for_exit: %v, want timed_out", out)
	}
	time.Sleep(time.Second) // B's exit grace ends
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "go", "Enter")
	if out := a.mustAnswer(t, "wait_for_exit", first); out["outcome"] != "completed" || out["exitStatus"] != float64(6) {
		t.Fatalf("A's wait_for_exit: %v, want completed with status 6", out)
	}
	var opts map[string]string
	if !poll(settleBound, func() bool {
		opts, _ = paneOptions(sock, "%1")
		return opts[holdOption] == "" && opts[holdOption+"-also"] == ""
	}) {
		t.Errorf("%%1 after both waits and graces: options %v, want no hold left", opts)
	}
	if opts["remain-on-exit"] != "on" {
		t.Errorf("%%1: remain-on-exit %q, want the user's own on back", opts["remain-on-exit"])
	}
}

// coHeld starts A's wait_for_exit on %1 (timeoutMs), waits until A holds
// it, then B's (30 s), and waits until B co-holds it.
func coHeld(t *testing.T, sock string, a, b *mcpServer, timeoutMs int) (first, second string) {
	t.Helper()
	first = a.startTool("wait_for_exit", map[string]any{"paneId": "%1", "timeoutMs": timeoutMs})
	if !poll(inFlightBound, func() bool { opts, _ := paneOptions(sock, "%1"); return opts[holdOption] != "" }) {
		t.Fatal("A's wait never held %1")
	}
	second = b.startTool("wait_for_exit", map[string]any{"paneId": "%1", "timeoutMs": 30000})
	if !poll(inFlightBound, func() bool { opts, _ := paneOptions(sock, "%1"); return opts[holdOption+"-also"] != "" }) {
		t.Fatal("B's wait never joined A's hold of %1")
	}
	return first, second
}

// TestInstancesHolderKilled: A holds a pane B waits on too, and is
// killed. B still gets the exit status, and once B is done it puts the
// user's setting back for the dead holder and closes the pane, as it
// would have closed: no option of either is left.
func TestInstancesHolderKilled(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "read x; exit 3")
	a := launchMCP(t, sock, "", "--exit-grace", "300ms")
	b := launchMCP(t, sock, "", "--exit-grace", "300ms")
	_, second := coHeld(t, sock, a, b, 30000)
	if err := syscall.Kill(a.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.awaitExit(settleBound)
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "go", "Enter")
	if out := b.mustAnswer(t, "wait_for_exit", second); out["outcome"] != "completed" || out["exitStatus"] != float64(3) {
		t.Fatalf("B's wait_for_exit: %v, want completed with status 3", out)
	}
	awaitClosedAfterGrace(t, sock, "%1")
}

// awaitClosedAfterGrace waits until pane, dead and released by the last
// instance that held it, has closed, as its remain-on-exit (unset) has it.
func awaitClosedAfterGrace(t *testing.T, sock, pane string) {
	t.Helper()
	if !poll(settleBound, func() bool { ps, _ := listPanes(sock); _, ok := ps[pane]; return !ok }) {
		opts, _ := paneOptions(sock, pane)
		t.Errorf("%s still there %v after the last exit grace (options %v); with remain-on-exit unset it would have closed", pane, settleBound, opts)
	}
}

// TestInstancesCoHolderKilled: B waits on a pane A holds, and is
// killed. A's release drops B's mark and puts the user's setting back on
// the live pane: nothing of either is left.
func TestInstancesCoHolderKilled(t *testing.T) {
	skipIfShort(t)
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "exec cat")
	a := launchMCP(t, sock, "", "--exit-grace", "300ms")
	b := launchMCP(t, sock, "", "--exit-grace", "300ms")
	first, _ := coHeld(t, sock, a, b, 1500)
	if err := syscall.Kill(b.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	b.awaitExit(settleBound)
	if out := a.mustAnswer(t, "wait_for_exit", first); out["outcome"] != "timed_out" {
		t.Fatalf("A's wait_for_exit: %v, want timed_out", out)
	}
	var opts map[string]string
	var err error
	if !poll(settleBound, func() bool {
		opts, err = paneOptions(sock, "%1")
		return err == nil && len(opts) == 0
	}) {
		t.Errorf("%%1 after A's release: options %v (%v), want none (no hold, remain-on-exit the user's: unset)", opts, err)
	}
}
