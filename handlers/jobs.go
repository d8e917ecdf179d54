package handlers

import (
	"errors"
	"syscall"
)

// jobExists reports whether the process group pgid (a shell's stopped
// job) still has a process. tmux and this server share the machine (they
// talk over a Unix socket), so the pane's processes are visible here. An
// unknown group (0) counts as existing: the pane stays reserved until
// force.
func jobExists(pgid int) bool {
	if pgid <= 0 {
		return true
	}
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
