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

// Binary is the tmux to run: $TMUX_MCP_TEST_REAL_TMUX when set (the
// testscript tests put a wrapper named tmux first on PATH), else tmux.
func Binary() string {
	if p := os.Getenv("TMUX_MCP_TEST_REAL_TMUX"); p != "" {
		return p
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
