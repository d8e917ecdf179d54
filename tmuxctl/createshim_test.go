package tmuxctl

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// The gating shell of CreateGated prints an exec marker that the frame
// scanner reads, then execs the program; a program it cannot find gets
// no marker. (Its wait for the start channel is stood in for by true.)
func TestCreateShimMarksExec(t *testing.T) {
	for _, c := range []struct {
		argv   []string
		marked bool
		rest   string
	}{
		{[]string{"echo", "hi"}, true, "hi\n"},
		{[]string{"/bin/echo", "there"}, true, "there\n"},
		{[]string{"no-such-program-tmux-mcp"}, false, ""},
	} {
		args := append([]string{"-c", createShim, RunnerName, "true", "sock", "channel", "n0nce", "0"}, c.argv...)
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

// Without argv the shim runs tmux's default-command through $SHELL; on
// tmux 3.4, which prints "$HOME" as "\$HOME", it undoes the escape.
func TestCreateShimDefaultCommand(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "tmux")
	script := "#!/bin/sh\ncase $3 in display-message) printf '%s\\n' 'echo \\$TMUX_MCP_T-ok';; esac\n"
	if err := os.WriteFile(fake, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	for unescape, want := range map[string]string{"1": "yes-ok\n", "0": "$TMUX_MCP_T-ok\n"} {
		cmd := exec.Command("/bin/sh", "-c", createShim, RunnerName, fake, "sock", "channel", "n0nce", unescape)
		cmd.Env = append(os.Environ(), "SHELL=/bin/sh", "TMUX_MCP_T=yes")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("unescape=%s: %v", unescape, err)
		}
		var s frame.Scanner
		found := s.Scan(out)
		if len(found) != 1 || string(out[found[0].End:]) != want {
			t.Errorf("unescape=%s: %q, want the marker then %q", unescape, out, want)
		}
	}
}

// What a gating shell itself prints names the runner, never tmux: $0 is
// RunnerName, not the tmux binary. (true stands in for tmux's wait-for.)
func TestGateMessagesNameTheRunner(t *testing.T) {
	for name, script := range map[string]string{"execShim": execShim, "createShim": createShim} {
		args := []string{"-c", script, RunnerName, "true", "sock", "channel"}
		if name == "createShim" {
			args = append(args, "n0nce", "0")
		}
		dir := t.TempDir() // a directory passes no check and cannot be exec'd
		out, _ := exec.Command("/bin/sh", append(args, dir)...).CombinedOutput()
		if !strings.Contains(string(out), RunnerName+":") || strings.Contains(string(out), "true:") {
			t.Errorf("%s: %q, want the shell's message to name %s", name, out, RunnerName)
		}
	}
}
