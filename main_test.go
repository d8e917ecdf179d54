package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite testscript goldens in testdata/script")

// realTmux is the tmux binary found before testscript puts its own command
// directory (which holds the "tmux" wrapper) first on PATH.
const realTmuxEnv = "TMUX_MCP_TEST_REAL_TMUX"

func TestMain(m *testing.M) {
	if os.Getenv(realTmuxEnv) == "" {
		if p, err := exec.LookPath("tmux"); err == nil {
			os.Setenv(realTmuxEnv, p)
		}
	}
	testscript.Main(m, map[string]func(){
		"tmux-mcp":   func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"mcp-replay": func() { os.Exit(mcpReplay(os.Args[1:])) },
		"tmux":       privateTmux,
	})
}

// privateTmux is the "tmux" that scripts and the server under test see: the
// real tmux on the script's private socket, with no configuration file, so
// no test ever touches a user's tmux server or reads their tmux.conf.
func privateTmux() {
	real, sock := os.Getenv(realTmuxEnv), os.Getenv("TMUX_MCP_SOCKET_PATH")
	if real == "" || sock == "" {
		os.Stderr.WriteString("tmux wrapper: " + realTmuxEnv + " and TMUX_MCP_SOCKET_PATH must be set\n")
		os.Exit(2)
	}
	argv := append([]string{real, "-S", sock, "-f", "/dev/null"}, os.Args[1:]...)
	err := syscall.Exec(real, argv, os.Environ())
	os.Stderr.WriteString("tmux wrapper: " + err.Error() + "\n")
	os.Exit(2)
}

func TestScripts(t *testing.T) {
	real := os.Getenv(realTmuxEnv)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Condition: func(cond string) (bool, error) {
			if cond == "tmux" {
				return real != "", nil
			}
			return false, nil
		},
		Setup: func(env *testscript.Env) error {
			// Each script gets its own tmux server on a socket in $WORK;
			// the wrapper above and the server under test both use it.
			sock := filepath.Join(env.WorkDir, "tmux.sock")
			env.Setenv("TMUX_MCP_SOCKET_PATH", sock)
			env.Setenv(realTmuxEnv, real)
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("SHELL", "/bin/sh")
			env.Setenv("TERM", "xterm-256color")
			env.Defer(func() {
				if real != "" {
					exec.Command(real, "-S", sock, "kill-server").Run()
				}
			})
			return nil
		},
	})
}
