// Package proc says whether processes of this machine still run, when
// they started and what they are named, without starting one (no ps): a
// signal 0, and /proc where there is one — to tell a zombie (a process
// that has exited but not been reaped, which holds nothing) from a
// running process, and for a process's start time and name.
package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
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

// SameName reports whether processes pid and other have the same command
// name (/proc's comm). A process a server forked has the server's name
// until it execs. Where /proc cannot tell, they do not.
func SameName(pid, other int) bool {
	if pid <= 0 || other <= 0 {
		return false
	}
	name, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return false
	}
	otherName, err := os.ReadFile("/proc/" + strconv.Itoa(other) + "/comm")
	return err == nil && bytes.Equal(name, otherName)
}

// StartedWithin reports whether process pid started less than d ago.
// Where /proc cannot tell, it did not.
func StartedWithin(pid int, d time.Duration) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	uptime, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return false
	}
	// pid (comm) state …: starttime, in clock ticks since boot, is the
	// 22nd field, the 20th after comm; comm may hold anything.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	fields := bytes.Fields(stat[i+1:])
	up := bytes.Fields(uptime)
	if len(fields) < 20 || len(up) < 1 {
		return false
	}
	ticks, err1 := strconv.ParseFloat(string(fields[19]), 64)
	now, err2 := strconv.ParseFloat(string(up[0]), 64)
	if err1 != nil || err2 != nil {
		return false
	}
	const clockTicks = 100 // USER_HZ: fixed at 100 on Linux for /proc
	return now-ticks/clockTicks < d.Seconds()
}

// Holding returns the id of a process of this user, other than this one,
// whose command line holds s, or 0 if none does. Where /proc cannot tell,
// none does. A zombie's command line is empty, and a process a server
// forked holds the server's until it execs.
func Holding(s string) int {
	if s == "" {
		return 0
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	want, self, uid := []byte(s), os.Getpid(), uint32(os.Getuid())
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || !e.IsDir() {
			continue
		}
		if fi, err := e.Info(); err != nil {
			continue
		} else if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != uid {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(cmdline, want) {
			return pid
		}
	}
	return 0
}
