// Package tmuxtest starts private tmux servers for tests: each on a socket
// in the test's temporary directory, with no configuration file, killed
// when the test ends. No test touches a user's tmux server.
package tmuxtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Binary is the tmux to run: $TMUX_MCP_TEST_TMUX when set (a path, or a
// name looked up on PATH; scripts/ci.sh sets it for each tmux release of the
// version matrix), else $TMUX_MCP_TEST_REAL_TMUX (the absolute path the root
// package's tests resolve before testscript puts a wrapper named tmux first
// on PATH), else tmux.
//
// A test that makes a tmuxctl client for a server started here should set
// its Config.Binary to Binary(), so that client and server are the same tmux.
func Binary() string {
	for _, env := range []string{"TMUX_MCP_TEST_TMUX", "TMUX_MCP_TEST_REAL_TMUX"} {
		if p := os.Getenv(env); p != "" {
			return p
		}
	}
	return "tmux"
}

// Server starts a tmux server with one detached 80x24 session named
// "main" running a shell, and returns its socket path. The test is skipped
// when tmux is not installed.
func Server(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath(Binary()); err != nil {
		t.Skip("tmux not installed")
	}
	dir, err := os.MkdirTemp("", "tmux-mcp-test-") // short: sockets have a ~100-byte path limit
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	t.Cleanup(func() {
		exec.Command(Binary(), "-S", sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	Run(t, sock, "new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "/bin/sh")
	return sock
}

// Run runs tmux on sock with args and returns its output, failing the test
// on error.
func Run(t testing.TB, sock string, args ...string) string {
	t.Helper()
	out, err := exec.Command(Binary(), append([]string{"-u", "-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
