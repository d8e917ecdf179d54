package handlers

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// jobExists reports whether the process group pgid (a shell's stopped
// job) still has a live process. tmux and this server share the machine
// (they talk over a Unix socket), so the pane's processes are visible
// here. An unknown group (0) counts as existing: the pane stays reserved
// until force. A killed job's leader lingers as a zombie until its shell
// reaps it; where /proc says so (Linux), that counts as gone.
func jobExists(pgid int) bool {
	if pgid <= 0 {
		return true
	}
	err := syscall.Kill(-pgid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pgid) + "/stat"); err == nil {
		// pid (comm) state ...: comm may hold spaces and parentheses.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			return false
		}
	}
	return true
}
