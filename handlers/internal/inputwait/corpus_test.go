package inputwait

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A corpusCase is a program in a private pane and whether it should be
// judged waiting for input.
type corpusCase struct {
	name    string
	needs   string // a program that must be installed, else the case is skipped
	cmd     string // a shell command; {py} is the python3 interpreter
	waiting bool
}

// knownMisses are the prompting cases the engine misses, and why.
var knownMisses = map[string]string{
	"bc": "no prompt, and it polls its input: weak evidence with nothing at the cursor",
}

// promptingCorpus are programs that wait for terminal input.
var promptingCorpus = []corpusCase{
	{"sh read with a question", "", `printf 'Overwrite config? [y/N] '; read a`, true},
	{"bash read -p", "bash", `exec bash --norc -c 'read -p "Name: " a'`, true},
	{"bash read -s (password)", "bash", `exec bash --norc -c 'read -s -p "Password: " a'`, true},
	{"read after a silent delay", "", `sleep 0.7; read a`, true},
	{"python input()", "python3", `exec {py} -c 'input("Your name? ")'`, true},
	{"python getpass", "python3", `exec {py} -c 'import getpass; getpass.getpass()'`, true},
	{"python REPL", "python3", `exec {py} -q`, true},
	{"python raw-mode key read", "python3", `exec {py} -c 'import tty,sys; tty.setraw(0); sys.stdout.write("press a key"); sys.stdout.flush(); sys.stdin.read(1)'`, true},
	{"python raw-mode approval polling its input", "python3", `exec {py} -c '
import tty,sys,select
tty.setraw(0); sys.stdout.write("Run rm -rf build? [y/n] "); sys.stdout.flush()
while not select.select([0],[],[],0.1)[0]: pass'`, true},
	{"python curses getch", "python3", `exec {py} -c 'import curses; curses.wrapper(lambda s: (s.addstr(0,0,"Press q to quit"), s.getch()))'`, true},
	{"python input() with a socket open", "python3", `exec {py} -c 'import socket; s=socket.socket(); input("Proceed? ")'`, true},
	{"node REPL", "node", `exec node`, true},
	{"node readline question", "node", `exec node -e 'require("readline").createInterface({input:process.stdin,output:process.stdout}).question("Project name? ",()=>process.exit())'`, true},
	{"node raw-mode keypress", "node", `exec node -e 'process.stdin.setRawMode(true); process.stdout.write("Press any key"); process.stdin.once("data",()=>process.exit())'`, true},
	{"perl <STDIN>", "perl", `exec perl -e 'print "Continue? "; <STDIN>'`, true},
	{"cat", "", `exec cat`, true},
	{"head -n1", "head", `exec head -n1`, true},
	{"cat | grep (a pipeline)", "grep", `cat | grep x`, true},
	{"ed", "ed", `exec ed`, true},
	{"sqlite3", "sqlite3", `exec sqlite3`, true},
	{"bc", "bc", `exec bc -q`, true},
	{"gdb", "gdb", `exec gdb -q -nx`, true},
	{"less", "less", `exec less /etc/passwd`, true},
	{"vim", "vim", `exec vim -u NONE -N`, true},
	{"rm -i", "rm", `f=$(mktemp); exec rm -i "$f"`, true},
	{"bash at its prompt", "bash", `exec bash --norc -i`, true},
	{"dash at its prompt", "dash", `exec dash -i`, true},
	{"zsh at its prompt", "zsh", `exec zsh -f -i`, true},
	{"ksh at its prompt", "ksh", `exec ksh -i`, true},
	{"fish at its prompt", "fish", `exec fish --no-config`, true},
}

// busyCorpus are programs that are busy, or wait for something other than
// the terminal, and print nothing (or keep printing).
var busyCorpus = []corpusCase{
	{"sleep", "", `exec sleep 60`, false},
	{"CPU spin", "", `while :; do :; done`, false},
	{"yes to /dev/null", "yes", `exec yes >/dev/null`, false},
	{"reader of a pipe", "", `sleep 60 | cat`, false},
	{"socket recv", "python3", `exec {py} -c 'import socket; a,b=socket.socketpair(); a.recv(1)'`, false},
	{"tcp recv", "python3", `exec {py} -c '
import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen()
c=socket.create_connection(s.getsockname()); a,_=s.accept(); a.recv(1)'`, false},
	{"socket accept", "python3", `exec {py} -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); s.accept()'`, false},
	{"printed Password: then sleeps", "", `printf 'Password: '; exec sleep 60`, false},
	{"printed a question then sleeps", "", `printf 'Continue? [y/N] '; exec sleep 60`, false},
	{"python printed a prompt then sleeps", "python3", `exec {py} -c 'import time; print("Enter passphrase:", end=" ", flush=True); time.sleep(60)'`, false},
	{"tail -f", "tail", `f=$(mktemp); echo 'log line' > "$f"; exec tail -f "$f"`, false},
	{"raw-mode spinner redrawing", "python3", `exec {py} -c '
import tty,sys,time,select
tty.setraw(0); i=0
while not select.select([0],[],[],0.1)[0]:
  sys.stdout.write("\rworking " + "|/-\\"[i%4] + " "); sys.stdout.flush(); i+=1'`, false},
	{"a line every 200 ms", "", `while :; do echo tick; sleep 0.2; done`, false},
	{"node server, no terminal in its epoll", "node", `exec node -e 'require("net").createServer().listen(0)'`, false},
	{"tmux client waiting on a channel", "", `exec tmux wait-for never-signalled`, false},
	{"shell waiting for a sleeping child", "bash", `exec bash --norc -c 'sleep 60; echo done'`, false},
}

// corpusTimeout bounds each prompting case; busyWindow is how long a busy
// case must go without being judged waiting.
const (
	corpusTimeout = 10 * time.Second
	busyWindow    = 3 * time.Second
)

// TestCorpus runs every program of the corpus in its own pane of a
// private tmux and checks the engine's verdict, with the OS's facts and
// with /proc/PID/syscall taken away. It logs a table of case, expected,
// got and seconds from the program's start to the answer.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus takes about a minute")
	}
	if runtime.GOOS != "linux" {
		t.Skip("these expectations are what Linux's /proc tells; README has what other systems can")
	}

	for _, f := range []struct {
		name  string
		facts Facts
	}{{"os-facts", OSFacts()}, {"no-syscall", withoutSyscall{OSFacts()}}} {
		t.Run(f.name, func(t *testing.T) { runCorpus(t, f.facts) })
	}
}

type corpusRow struct {
	c       corpusCase
	got     string
	seconds float64
	detail  string
}

func runCorpus(t *testing.T, facts Facts) {
	r := newRig(t)
	privateTmuxOnPath(t, r)
	e := NewWithFacts(r.client, facts)
	py := pythonOnce()
	var rows []corpusRow
	run := func(c corpusCase, d time.Duration) corpusRow {
		if c.needs != "" {
			if _, err := exec.LookPath(c.needs); err != nil || (c.needs == "python3" && py == "") {
				return corpusRow{c: c, got: "skipped", detail: c.needs + " not installed"}
			}
		}
		start := time.Now()
		pane := r.start(strings.ReplaceAll(c.cmd, "{py}", py))
		end, err := r.await(e, pane, d)
		row := corpusRow{c: c, seconds: time.Since(start).Seconds()}
		switch {
		case err == nil && end.Waiting:
			row.got = "awaiting_input"
			row.detail = fmt.Sprintf("prompt %q; %s", end.Prompt, strings.Join(end.Evidence, "; "))
		case err == nil && end.Dead:
			row.got = "exited"
		default:
			row.got = "not waiting"
			row.detail = strings.Join(end.Evidence, "; ")
		}
		return row
	}
	// Prompting cases one at a time, so each time is the program's own.
	for _, c := range promptingCorpus {
		rows = append(rows, run(c, corpusTimeout))
	}
	// Busy cases together: each must stay not waiting for busyWindow.
	busy := make([]corpusRow, len(busyCorpus))
	var wg sync.WaitGroup
	for i, c := range busyCorpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			busy[i] = run(c, busyWindow)
		}()
	}
	wg.Wait()
	rows = append(rows, busy...)

	var b strings.Builder
	fmt.Fprintf(&b, "\n%-46s %-15s %-15s %7s\n", "case", "expected", "got", "seconds")
	var times []float64
	detected, prompting, wrongBusy := 0, 0, 0
	for _, row := range rows {
		want := "not waiting"
		if row.c.waiting {
			want = "awaiting_input"
		}
		fmt.Fprintf(&b, "%-46s %-15s %-15s %7.2f  %s\n", row.c.name, want, row.got, row.seconds, clipDetail(row.detail))
		switch {
		case row.got == "skipped":
		case row.c.waiting:
			prompting++
			switch {
			case row.got == "awaiting_input":
				detected++
				times = append(times, row.seconds)
			case knownMisses[row.c.name] != "":
				t.Logf("%s: missed, as known: %s", row.c.name, knownMisses[row.c.name])
			default:
				t.Errorf("%s: got %s, want awaiting_input (%s)", row.c.name, row.got, row.detail)
			}
		case row.got == "awaiting_input":
			wrongBusy++
			t.Errorf("%s: got awaiting_input, want not waiting (%s)", row.c.name, row.detail)
		}
	}
	slices.Sort(times)
	median := 0.0
	if len(times) > 0 {
		median = times[len(times)/2]
	}
	fmt.Fprintf(&b, "prompting: %d of %d awaiting_input, median %.2f s from the program's start; busy: %d of %d judged waiting\n",
		detected, prompting, median, wrongBusy, len(busyCorpus))
	t.Log(b.String())
	if detected*100 < prompting*95 {
		t.Errorf("%d of %d prompting programs answered awaiting_input, want at least 95%%", detected, prompting)
	}
}

func clipDetail(s string) string {
	if len(s) > 110 {
		return s[:110] + "…"
	}
	return s
}

// privateTmuxOnPath makes the panes' tmux (the "tmux client waiting on a
// channel" case) talk to the private server, not to a user's.
func privateTmuxOnPath(t testing.TB, r *testRig) {
	dir := t.TempDir()
	bin, err := exec.LookPath(tmuxtest.Binary())
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nexec " + bin + " -S " + r.sock + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, r.sock, "set-environment", "-g", "PATH", dir+":"+os.Getenv("PATH"))
}
