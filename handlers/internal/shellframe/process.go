package shellframe

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// psTimeout bounds the ps that names a process where there is no /proc.
const psTimeout = 2 * time.Second

// ProcessName returns the command name of process pid ("" if unknown):
// the pane's own process, which in a shell pane is the shell even while
// it runs something else (its rc file, say) in the foreground. tmux and
// this server share the machine (they talk over a Unix socket), so the
// pane's processes are visible here. It reads /proc where there is one
// (Linux) and asks ps, within psTimeout, elsewhere.
func ProcessName(pid int) string {
	if pid <= 0 {
		return ""
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); err == nil {
		return strings.TrimSpace(string(b))
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		return "" // a /proc without this pid: the process is gone
	}
	ctx, cancel := context.WithTimeout(context.Background(), psTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "ps", "-o", "comm=", "-p", strconv.Itoa(pid))
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
