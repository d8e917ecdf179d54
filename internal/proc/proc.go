// Package proc says whether processes of this machine still run, without
// starting one (no ps): a signal 0, and /proc where there is one to tell
// a zombie — a process that has exited but not been reaped, which holds
// nothing — from a running process.
package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// Alive reports whether process pid runs: it exists (or exists under
// another user) and is not a zombie.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return !Zombie(pid)
}

// GroupAlive reports whether process group pgid still has a member, its
// leader not a zombie. A pgid of 0 or less is unknown and counts as alive.
func GroupAlive(pgid int) bool {
	if pgid <= 0 {
		return true
	}
	err := syscall.Kill(-pgid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return !Zombie(pgid)
}

// Zombie reports whether /proc says process pid has exited and waits to be
// reaped. Without /proc it reports false.
func Zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state …: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
