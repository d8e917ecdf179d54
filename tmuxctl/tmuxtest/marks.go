package tmuxtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// markingRC makes bash mark its prompts and commands with OSC 133: A
// before the prompt, B after it, C as a command's output starts, D with
// its status as it ends.
const markingRC = `PS1='\[\e]133;A\a\]$ \[\e]133;B\a\]'
PS0='\e]133;C\a'
PROMPT_COMMAND='printf "\033]133;D;%s\007" $?'
`

// MarkingBash splits pane %0 of the tmux on sock and runs there an
// interactive bash that marks its prompts and commands (OSC 133), as a
// shell integration would: it is pane %1 of a fresh server. It skips the
// test where there is no bash.
func MarkingBash(t testing.TB, sock string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash")
	}
	rc := filepath.Join(t.TempDir(), "rc")
	if err := os.WriteFile(rc, []byte(markingRC), 0o600); err != nil {
		t.Fatal(err)
	}
	Run(t, sock, "split-window", "-d", "-t", "%0", bash, "--rcfile", rc, "--noprofile", "-i")
}
