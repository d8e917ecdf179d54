package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// buildBinary builds the tmux-mcp binary that process tests start, once
// per test run: with -race when the tests themselves are a race build, so
// a race in the server fails the run rather than going unseen.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := runTempDir("tmux-mcp-test-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "tmux-mcp")
	args := []string{"build", "-o", bin}
	if raceBuild {
		args = append(args, "-race")
	}
	// The module's root package: the tests run in e2e/.
	out, err := exec.Command("go", append(args, "..")...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, out)
	}
	return bin, nil
})

// runDirs are the temporary directories that live as long as the test
// run (built binaries), removed when it ends (see [TestMain]).
var runDirs struct {
	sync.Mutex
	list []string
}

// runTempDir makes a temporary directory that is removed when the test run
// ends.
func runTempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err == nil {
		runDirs.Lock()
		runDirs.list = append(runDirs.list, dir)
		runDirs.Unlock()
	}
	return dir, err
}

// removingRunDirs runs the tests, then removes the run's directories.
type removingRunDirs struct{ *testing.M }

func (m removingRunDirs) Run() int {
	code := m.M.Run()
	runDirs.Lock()
	defer runDirs.Unlock()
	for _, dir := range runDirs.list {
		os.RemoveAll(dir)
	}
	return code
}

// serverCommand returns the command that runs the built tmux-mcp on the
// private tmux at sock with TMPDIR=tmpdir (the test's TMPDIR when empty)
// and the caller's flags. A race-built server exits without the race
// detector's one-second pause, as in the goldens.
func serverCommand(bin, sock, tmpdir string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"-S", sock, "--tmux", tmuxtest.Binary()}, args...)...)
	// The process tests run with pane taps, as users do (see tapBinary):
	// the instance, leftover and stress tests are where taps are proven.
	cmd.Env = append(environWithout("TMUX", "TMUX_PANE", "TMPDIR", "GORACE", "TMUX_MCP_NO_TAPS"), "GORACE=atexit_sleep_ms=10")
	if tmpdir != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+tmpdir)
	} else {
		cmd.Env = append(cmd.Env, "TMPDIR="+os.TempDir())
	}
	return cmd
}

// Bounds of process tests. They are generous on purpose: a machine twenty
// times slower must pass.
const (
	replyBound    = 60 * time.Second // a tool call's reply; a process's exit
	inFlightBound = 30 * time.Second // a call to show in tmux once sent
	settleBound   = 20 * time.Second // leftovers to be cleared, processes to die
	// stopGrace is how long a test's cleanup lets a server exit after EOF
	// before killing it.
	stopGrace = 10 * time.Second
)
