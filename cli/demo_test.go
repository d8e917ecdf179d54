package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// The demo succeeds and leaves nothing behind: no directory, no tmux
// server still running on its socket.
func TestDemoLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var out, errOut bytes.Buffer
	env := Env{
		Config: testConfig(),
		Stdout: &out,
		Stderr: &errOut,
	}
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc to look for a leftover tmux server")
	}
	if code := Lookup("demo").Run(env); code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"> start_program ", "  outcome: matched", "  exitStatus: 0", "  exitStatus: 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(tmp)) {
			t.Errorf("a process still names the demo's directory: %s: %q", f, b)
		}
	}
}

// testConfig is the default configuration on the tmux under test.
func testConfig() server.Config {
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary = "test", tmuxtest.Binary()
	return cfg
}
