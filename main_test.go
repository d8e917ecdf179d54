package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

var update = flag.Bool("update", false, "rewrite testscript goldens in testdata/script")

// testTmuxEnv names the tmux the tests run: a path, or a name looked up on
// PATH ("tmux" when unset). scripts/ci.sh points it at each tmux release of
// the version matrix in turn.
const testTmuxEnv = "TMUX_MCP_TEST_TMUX"

// realTmuxEnv holds the absolute path of that tmux, resolved before scripts
// get a "tmux" wrapper first on their PATH. The wrapper and the scripts use it.
const realTmuxEnv = "TMUX_MCP_TEST_REAL_TMUX"

func TestMain(m *testing.M) {
	if os.Getenv(realTmuxEnv) == "" {
		want := os.Getenv(testTmuxEnv)
		if want == "" {
			want = "tmux"
		}
		if p, err := exec.LookPath(want); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			os.Setenv(realTmuxEnv, p)
			// tmuxtest.Binary, in this process and in its children, sees
			// the same absolute path.
			os.Setenv(testTmuxEnv, p)
		} else if os.Getenv(testTmuxEnv) != "" {
			// A tmux that was asked for and is missing fails the run
			// instead of skipping every test.
			os.Stderr.WriteString(testTmuxEnv + ": " + err.Error() + "\n")
			os.Exit(2)
		}
	}
	testscript.Main(m, map[string]func(){
		"tmux-mcp":   func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"mcp-replay": func() { os.Exit(mcpReplay(os.Args[1:])) },
	})
}

// privateTmux is the "tmux" that scripts and the server under test see: the
// real tmux on the script's private socket, with no configuration file, so
// no test ever touches a user's tmux server or reads their tmux.conf.
//
// It is a shell script rather than a testscript command: one run of the
// goldens starts tmux some 800 times, and starting the race-built test
// binary for each costs about 0.1 s of CPU where sh costs about 1 ms.
const privateTmux = `#!/bin/sh
: "${TMUX_MCP_TEST_REAL_TMUX:?tmux wrapper: not set}"
: "${TMUX_MCP_SOCKET_PATH:?tmux wrapper: not set}"
# tmux 3.2a makes a detached session's window the default size whatever
# new-session's -x and -y say, and counts the status line in that default;
# a resize-window in the same client makes it what the script asked for
# (80x24 when it asked for nothing), as every later version does.
if [ -n "${TMUX_MCP_TEST_SIZE_NEW_SESSIONS-}" ]; then
	new= x= y= prev=
	for a do
		case $a in new-session | new) new=1 ;; esac
		case $prev in -x) x=$a ;; -y) y=$a ;; esac
		prev=$a
	done
	if [ -n "$new" ]; then
		set -- "$@" ';' resize-window -x "${x:-80}" -y "${y:-24}"
	fi
fi
# Scripts run "tmux run-shell true" to make tmux fork and reap: tmux 3.3a
# now and then misses a child's exit until it next reaps one. It can miss
# the exit of that job the same way, and the script then hung for good
# (seen once, for 22 minutes). So a try that has not answered within about
# 2 s is ended and another started: the next job's exit reaps both.
if [ "$*" = "run-shell true" ]; then
	tries=0
	while [ $tries -lt 10 ]; do
		"$TMUX_MCP_TEST_REAL_TMUX" -S "$TMUX_MCP_SOCKET_PATH" -f /dev/null run-shell true &
		job=$! ticks=0
		while kill -0 $job 2>/dev/null && [ $ticks -lt 40 ]; do
			sleep 0.05
			ticks=$((ticks + 1))
		done
		if ! kill -0 $job 2>/dev/null; then
			wait $job
			exit
		fi
		kill $job 2>/dev/null
		wait $job 2>/dev/null
		tries=$((tries + 1))
	done
	echo "tmux wrapper: run-shell true did not answer in 10 tries" >&2
	exit 1
fi
exec "$TMUX_MCP_TEST_REAL_TMUX" -S "$TMUX_MCP_SOCKET_PATH" -f /dev/null "$@"
`

func TestScripts(t *testing.T) {
	real := os.Getenv(realTmuxEnv)
	wrapperDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(wrapperDir, "tmux"), []byte(privateTmux), 0o755); err != nil {
		t.Fatal(err)
	}
	var version tmuxctl.Version
	if real != "" {
		v, err := tmuxctl.New(tmuxctl.Config{Binary: real}).Version(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		version = v
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"wait-panes-run": waitPanesRunCmd,
		},
		// [tmux] says a tmux is installed; [tmuxX.Y] that it is X.Y or
		// later, for what tmux itself shows differently (3.2a has no
		// pane_dead_signal; 3.7 shows invalid UTF-8 as U+FFFD). [taps]
		// says panes are watched through taps, whose streams (and
		// cursors) a later tmux-mcp continues; without them (the
		// TMUX_MCP_NO_TAPS leg of scripts/ci.sh, and where readers
		// cannot be checked) each instance's stream starts at 0.
		Condition: func(cond string) (bool, error) {
			if cond == "tmux" {
				return real != "", nil
			}
			if cond == "taps" {
				return tapBinary() != "", nil
			}
			if v, ok := strings.CutPrefix(cond, "tmux"); ok {
				want, err := tmuxctl.ParseVersion("tmux " + v)
				if err != nil {
					return false, fmt.Errorf("condition %q: %v", cond, err)
				}
				return real != "" && version.AtLeast(want.Major, want.Minor), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			// Each script gets its own tmux server on a socket in $WORK;
			// the wrapper above and the server under test both use it.
			sock := filepath.Join(env.WorkDir, "tmux.sock")
			env.Setenv("PATH", wrapperDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("TMUX_MCP_SOCKET_PATH", sock)
			env.Setenv(realTmuxEnv, real)
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("SHELL", "/bin/sh")
			env.Setenv("TERM", "xterm-256color")
			if !version.AtLeast(3, 3) {
				env.Setenv("TMUX_MCP_TEST_SIZE_NEW_SESSIONS", "1")
			}
			// TMUX_MCP_TMUX_CLIENT=exec runs every golden with the tmux
			// binary forced, and TMUX_MCP_SDK_CALLS=1 with every tool on
			// go-sdk's own typed path rather than tools/callpath
			// (scripts/ci.sh sets both, on one version).
			// TMUX_MCP_NO_TAPS=1 and TMUX_MCP_TEST_NO_PROC=1 run them
			// as without taps and without /proc (ci.sh's fallback leg).
			for _, name := range []string{"TMUX_MCP_TMUX_CLIENT", "TMUX_MCP_SDK_CALLS", "TMUX_MCP_NO_TAPS", proc.NoProcEnv} {
				if v := os.Getenv(name); v != "" {
					env.Setenv(name, v)
				}
			}
			// A binary built with -race sleeps 1 s as it exits, by default,
			// so that other threads can finish reporting; the server and
			// mcp-replay are such binaries under go test -race, and that
			// second would be most of a golden's time.
			env.Setenv("GORACE", strings.TrimSpace("atexit_sleep_ms=10 "+os.Getenv("GORACE")))
			// The names of the script's environment, for the tmux that
			// wait-panes-run runs.
			var names []string
			for _, kv := range env.Vars {
				if name, _, ok := strings.Cut(kv, "="); ok {
					names = append(names, name)
				}
			}
			env.Values[scriptEnvNames{}] = names
			env.Defer(func() {
				if real != "" {
					exec.Command(real, "-S", sock, "kill-server").Run()
				}
			})
			return nil
		},
	})
}

// scriptEnvNames keys, in testscript.Env.Values, the names of the variables
// a script starts with.
type scriptEnvNames struct{}

const waitPanesRunUsage = "usage: wait-panes-run [-t pane] command"

// waitPanesRunCmd is the scripts' command
//
//	wait-panes-run [-t pane] command
//
// It waits until every pane of the script's tmux server, or the one pane -t
// names, runs command as tmux's #{pane_current_command} shows it (a pane's
// shell becomes the program it execs some time after new-session or
// split-window has returned). It asks the script's own tmux, the "tmux"
// on the script's PATH, about every 10 ms, and fails the script with what
// it last saw after 10 s.
func waitPanesRunCmd(ts *testscript.TestScript, neg bool, args []string) {
	target, want, err := parseWaitPanesRun(neg, args)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	tmux, err := lookPathIn("tmux", ts.Getenv("PATH"))
	if err != nil {
		ts.Fatalf("wait-panes-run: %v", err)
	}
	env := scriptEnv(ts)
	dir := ts.MkAbs(".")
	tmuxArgs := []string{"list-panes", "-a", "-F", paneCommandFormat}
	if target != "" {
		tmuxArgs = []string{"display-message", "-p", "-t", target, paneCommandFormat}
	}
	list := func(ctx context.Context) ([]paneCommand, error) {
		cmd := exec.CommandContext(ctx, tmux, tmuxArgs...)
		cmd.Env = env
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("tmux %s: %v: %s", strings.Join(tmuxArgs, " "), err, strings.TrimSpace(stderr.String()))
		}
		panes := parsePaneCommands(string(out))
		if target != "" && len(panes) == 0 {
			// tmux 3.3a's display-message -t names a missing pane
			// with an empty #{pane_id}, and exits 0.
			return nil, fmt.Errorf("tmux found no pane %s", target)
		}
		return panes, nil
	}
	if err := pollPanesRun(context.Background(), list, want, 10*time.Millisecond, 10*time.Second); err != nil {
		ts.Fatalf("wait-panes-run: %v", err)
	}
}

// parseWaitPanesRun returns the pane (empty for all) and the command of
// wait-panes-run's arguments, or an error naming its usage.
func parseWaitPanesRun(neg bool, args []string) (target, want string, err error) {
	if neg {
		return "", "", fmt.Errorf("wait-panes-run does not take !; %s", waitPanesRunUsage)
	}
	switch {
	case len(args) == 1 && !strings.HasPrefix(args[0], "-"):
		return "", args[0], nil
	case len(args) == 3 && args[0] == "-t" && args[1] != "" && args[2] != "":
		return args[1], args[2], nil
	}
	return "", "", fmt.Errorf("wait-panes-run %s: %s", strings.Join(args, " "), waitPanesRunUsage)
}

// scriptEnv is the script's environment as it stands: the variables it
// started with, and those it may have set since that tmux reads, with the
// values ts.Getenv gives (unset and empty ones left out).
func scriptEnv(ts *testscript.TestScript) []string {
	names, _ := ts.Value(scriptEnvNames{}).([]string)
	names = append(names[:len(names):len(names)], "TMUX", "TMUX_PANE", "TMUX_TMPDIR", "LANG", "LC_ALL", "LC_CTYPE")
	seen := map[string]bool{}
	var env []string
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if v := ts.Getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	return append(env, "PWD="+ts.MkAbs("."))
}

// lookPathIn finds an executable named file in the directories of path.
func lookPathIn(file, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, file)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on the script's PATH", file)
}

// paneCommandFormat makes tmux print a pane as parsePaneCommands reads it.
const paneCommandFormat = "#{pane_id} #{pane_current_command}"

// paneCommand is a pane and the command tmux says it runs.
type paneCommand struct{ pane, command string }

func (p paneCommand) String() string { return p.pane + " " + p.command }

// parsePaneCommands reads lines of paneCommandFormat, leaving out those
// without a pane.
func parsePaneCommands(out string) []paneCommand {
	var panes []paneCommand
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		pane, command, _ := strings.Cut(line, " ")
		if pane == "" {
			continue
		}
		panes = append(panes, paneCommand{pane, command})
	}
	return panes
}

// pollPanesRun calls list every interval until it returns at least one pane
// and every pane it returns runs want. After timeout it gives up with an
// error that says what list last returned.
func pollPanesRun(ctx context.Context, list func(context.Context) ([]paneCommand, error), want string, interval, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	last := "nothing"
	for {
		panes, err := list(ctx)
		switch {
		case err != nil && ctx.Err() != nil && last != "nothing":
			// Cut short by the deadline: what came before says more.
		case err != nil:
			last = err.Error()
		case len(panes) == 0:
			last = "no panes"
		default:
			all := true
			seen := make([]string, len(panes))
			for i, p := range panes {
				all = all && p.command == want
				seen[i] = p.String()
			}
			if all {
				return nil
			}
			last = strings.Join(seen, ", ")
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not every pane ran %q within %v; last seen: %s", want, timeout, last)
		case <-tick.C:
		}
	}
}

func TestWaitPanesRunArgs(t *testing.T) {
	for _, tc := range []struct {
		neg          bool
		args         []string
		target, want string
	}{
		{args: []string{"cat"}, want: "cat"},
		{args: []string{"-t", "%0", "cat"}, target: "%0", want: "cat"},
		{neg: true, args: []string{"cat"}},
		{args: nil},
		{args: []string{"cat", "sh"}},
		{args: []string{"-t", "%0"}},
		{args: []string{"-t"}},
		{args: []string{"-x", "%0", "cat"}},
		{args: []string{"-t", "%0", "cat", "sh"}},
	} {
		target, want, err := parseWaitPanesRun(tc.neg, tc.args)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), waitPanesRunUsage) {
				t.Errorf("neg %v args %q: error %v, want one naming %q", tc.neg, tc.args, err, waitPanesRunUsage)
			}
			continue
		}
		if err != nil || target != tc.target || want != tc.want {
			t.Errorf("neg %v args %q: %q %q %v, want %q %q", tc.neg, tc.args, target, want, err, tc.target, tc.want)
		}
	}
}

func TestParsePaneCommands(t *testing.T) {
	got := parsePaneCommands("%0 cat\n%1 sh\n%2 \n")
	want := []paneCommand{{"%0", "cat"}, {"%1", "sh"}, {"%2", ""}}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, out := range []string{"", "\n", " \n"} {
		if got := parsePaneCommands(out); len(got) != 0 {
			t.Errorf("output %q: got %v, want no panes", out, got)
		}
	}
}

func TestPollPanesRun(t *testing.T) {
	// seq answers each call with the next of its answers, then the last.
	seq := func(answers ...[]paneCommand) func(context.Context) ([]paneCommand, error) {
		i := 0
		return func(context.Context) ([]paneCommand, error) {
			a := answers[min(i, len(answers)-1)]
			i++
			return a, nil
		}
	}
	sh := []paneCommand{{"%0", "cat"}, {"%1", "sh"}}
	cat := []paneCommand{{"%0", "cat"}, {"%1", "cat"}}
	const interval, timeout = time.Millisecond, 50 * time.Millisecond

	if err := pollPanesRun(context.Background(), seq(nil, sh, sh, cat), "cat", interval, timeout); err != nil {
		t.Errorf("panes that come to run cat: %v", err)
	}
	for _, tc := range []struct {
		name string
		list func(context.Context) ([]paneCommand, error)
		seen string
	}{
		{"a pane that stays sh", seq(sh), "last seen: %0 cat, %1 sh"},
		{"no panes", seq(nil), "last seen: no panes"},
		{"tmux failing", func(context.Context) ([]paneCommand, error) {
			return nil, fmt.Errorf("can't find pane: %%9")
		}, "last seen: can't find pane: %9"},
	} {
		start := time.Now()
		err := pollPanesRun(context.Background(), tc.list, "cat", interval, timeout)
		if err == nil || !strings.Contains(err.Error(), tc.seen) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.seen)
		}
		if d := time.Since(start); d < timeout {
			t.Errorf("%s: gave up after %v, before the timeout %v", tc.name, d, timeout)
		}
	}
}
