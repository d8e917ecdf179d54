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

	"github.com/rogpeppe/go-internal/testscript"
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
	testscript.Main(removingRunDirs{m}, map[string]func(){
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
		// [tmux] says a tmux is installed; [tmuxX.Y] that it is X.Y or
		// later, for what tmux itself shows differently (3.2a has no
		// pane_dead_signal; 3.7 shows invalid UTF-8 as U+FFFD).
		Condition: func(cond string) (bool, error) {
			if cond == "tmux" {
				return real != "", nil
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
			for _, name := range []string{"TMUX_MCP_TMUX_CLIENT", "TMUX_MCP_SDK_CALLS"} {
				if v := os.Getenv(name); v != "" {
					env.Setenv(name, v)
				}
			}
			// A binary built with -race sleeps 1 s as it exits, by default,
			// so that other threads can finish reporting; the server and
			// mcp-replay are such binaries under go test -race, and that
			// second would be most of a golden's time.
			env.Setenv("GORACE", strings.TrimSpace("atexit_sleep_ms=10 "+os.Getenv("GORACE")))
			env.Defer(func() {
				if real != "" {
					exec.Command(real, "-S", sock, "kill-server").Run()
				}
			})
			return nil
		},
	})
}
