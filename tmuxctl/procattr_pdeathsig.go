//go:build linux || freebsd

package tmuxctl

import "syscall"

// dieWithParent makes a tmux child get SIGKILL when this process dies,
// however it dies: a wait-for client left behind would hold a channel
// waiter in the tmux server. (Linux's prctl and FreeBSD's procctl; on
// macOS the next start releases what a dead instance left, see the live
// package.)
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
