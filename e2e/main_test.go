package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMain makes TMUX_MCP_TEST_TMUX (the tmux the tests run: a path, or a
// name looked up on PATH; scripts/ci.sh points it at each tmux release of
// the version matrix in turn) an absolute path, so that every server the
// tests start runs the same tmux, and removes the run's directories at the
// end (see runTempDir).
func TestMain(m *testing.M) {
	const testTmuxEnv = "TMUX_MCP_TEST_TMUX"
	want := os.Getenv(testTmuxEnv)
	if want == "" {
		want = "tmux"
	}
	if p, err := exec.LookPath(want); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		os.Setenv(testTmuxEnv, p)
	} else if os.Getenv(testTmuxEnv) != "" {
		// A tmux that was asked for and is missing fails the run instead
		// of skipping every test.
		os.Stderr.WriteString(testTmuxEnv + ": " + err.Error() + "\n")
		os.Exit(2)
	}
	os.Exit(removingRunDirs{m}.Run())
}
