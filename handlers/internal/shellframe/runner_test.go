package shellframe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnersParse checks every runner the way its shell reads it: the
// runner as written for a command (sh -n, or zsh -n and fish -n where
// installed), and the embedded POSIX file with shellcheck where installed
// (Debian package shellcheck; .ci/run installs it). The zsh and fish
// runners are not shellcheck's: it reads only sh, bash, dash and ksh.
func TestRunnersParse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's a dir")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind   Kind
		shells []string
	}{
		{POSIX, []string{"sh", "dash", "bash", "ksh"}},
		{Zsh, []string{"zsh"}},
		{Fish, []string{"fish"}},
	} {
		f, err := Write(dir, "n0nce", "echo hi", "echo hi", c.kind)
		if err != nil {
			t.Fatal(err)
		}
		runner, err := os.ReadFile(f.runner)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(runner), "@") && !strings.Contains(dir, "@") {
			t.Errorf("kind %d: a word was left unfilled:\n%s", c.kind, runner)
		}
		for _, sh := range c.shells {
			if _, err := exec.LookPath(sh); err != nil {
				t.Logf("%s not installed: not checked with it", sh)
				continue
			}
			if out, err := exec.Command(sh, "-n", f.runner).CombinedOutput(); err != nil {
				t.Errorf("%s -n on the runner: %v\n%s\n%s", sh, err, out, runner)
			}
		}
		f.Remove()
	}
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Log("shellcheck not installed: posix.sh not linted")
		return
	}
	if out, err := exec.Command("shellcheck", "posix.sh").CombinedOutput(); err != nil {
		t.Errorf("shellcheck posix.sh: %v\n%s", err, out)
	}
}
