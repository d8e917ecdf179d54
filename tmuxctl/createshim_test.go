package tmuxctl

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// The gating shell of CreateGated prints an exec marker that the frame
// scanner reads, then execs the program; a program it cannot find gets
// no marker. (Its gate is stood in for by a file that holds the start.)
func TestCreateShimMarksExec(t *testing.T) {
	gate := gateFile(t, "1\n")
	for _, c := range []struct {
		argv   []string
		marked bool
		rest   string
	}{
		{[]string{"echo", "hi"}, true, "hi\n"},
		{[]string{"/bin/echo", "there"}, true, "there\n"},
		{[]string{"no-such-program-tmux-mcp"}, false, ""},
	} {
		args := append([]string{"-c", createShim, RunnerName, gate, "n0nce", ""}, c.argv...)
		out, _ := exec.Command("/bin/sh", args...).Output()
		var s frame.Scanner
		found := s.Scan(out)
		if c.marked != (len(found) == 1 && found[0].Kind == frame.Exec && found[0].Nonce == "n0nce") {
			t.Errorf("%v: markers %+v in %q", c.argv, found, out)
			continue
		}
		if c.marked && string(out[found[0].End:]) != c.rest {
			t.Errorf("%v: after the marker %q, want %q", c.argv, out[found[0].End:], c.rest)
		}
	}
}

// gateFile is a regular file that stands in for a gate's FIFO: the shell
// reads it the same way.
func gateFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Without argv the shim runs tmux's default-command, which comes through
// the gate after the start, through $SHELL, byte for byte (several lines
// included); with none, $SHELL as a login shell.
func TestCreateShimDefaultCommand(t *testing.T) {
	for payload, want := range map[string]string{
		"echo \"$TMUX_MCP_T-ok\" 'it''s' '#(x)'": "yes-ok its #(x)\n",
		"echo one\necho two":                     "one\ntwo\n",
	} {
		cmd := exec.Command("/bin/sh", "-c", createShim, RunnerName, gateFile(t, "1\n"+payload), "n0nce", "")
		cmd.Env = append(os.Environ(), "SHELL=/bin/sh", "TMUX_MCP_T=yes")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", payload, err)
		}
		var s frame.Scanner
		found := s.Scan(out)
		if len(found) != 1 || string(out[found[0].End:]) != want {
			t.Errorf("%q: %q, want the marker then %q", payload, out, want)
		}
	}
}

// A gate that closes without the start (given up) or that is gone stops
// the shell with status 126 before anything runs.
func TestGateGivenUp(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	for _, gate := range []string{gateFile(t, ""), missing} {
		for name, args := range map[string][]string{
			"execShim":   {"-c", execShim, RunnerName, gate, "echo", "ran"},
			"ackShim":    {"-c", ackShim, RunnerName, gate, missing, "n0nce", "echo", "ran"},
			"createShim": {"-c", createShim, RunnerName, gate, "n0nce", "", "echo", "ran"},
		} {
			out, err := exec.Command("/bin/sh", args...).CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 126 || len(out) != 0 {
				t.Errorf("%s, gate %s: %q, %v; want nothing printed and exit status 126", name, gate, out, err)
			}
		}
	}
}

// What a gating shell itself prints names the runner, never anything
// else: $0 is RunnerName.
func TestGateMessagesNameTheRunner(t *testing.T) {
	gate := gateFile(t, "1\n")
	for name, script := range map[string]string{"execShim": execShim, "createShim": createShim} {
		args := []string{"-c", script, RunnerName, gate}
		if name == "createShim" {
			args = append(args, "n0nce", "")
		}
		dir := t.TempDir() // a directory passes no check and cannot be exec'd
		out, _ := exec.Command("/bin/sh", append(args, dir)...).CombinedOutput()
		if !strings.Contains(string(out), RunnerName+":") {
			t.Errorf("%s: %q, want the shell's message to name %s", name, out, RunnerName)
		}
	}
}
