// Package proc says whether processes of this machine still run, when
// they started, what they are named and what their command lines hold.
// It reads /proc where there is one (Linux); elsewhere (macOS, FreeBSD)
// it asks ps for what a signal 0 cannot tell, except whether a process
// is a zombie, which it never starts a process to ask. Setting
// TMUX_MCP_TEST_NO_PROC makes it act as where there is no /proc, so that
// CI runs on Linux the code macOS runs.
package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// NoProcEnv is the test hook's variable: set to anything, this package
// does without /proc.
const NoProcEnv = "TMUX_MCP_TEST_NO_PROC"

// procfs reports whether /proc is read (swapped by the tests).
var procfs = sync.OnceValue(func() bool {
	if os.Getenv(NoProcEnv) != "" {
		return false
	}
	_, err := os.Stat("/proc/self/stat")
	return err == nil
})

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
// reaped. Without /proc it reports false: Alive and GroupAlive are asked
// in sweeps and in every check of a job, too often for a ps each, and a
// zombie is reaped soon by its parent (tmux, a shell).
func Zombie(pid int) bool {
	if !procfs() {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state …: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// Name returns the command name of process pid ("" if unknown): /proc's
// comm, or ps's comm (on macOS the executable's path or argv[0], which
// callers reduce to a base name).
func Name(pid int) string {
	if pid <= 0 {
		return ""
	}
	if !procfs() {
		out, _ := ps("-o", "comm=", "-p", strconv.Itoa(pid))
		return strings.TrimSpace(out)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return "" // the process is gone
	}
	return strings.TrimSpace(string(b))
}

// SameName reports whether processes pid and other have the same command
// name. A process a server forked has the server's name until it execs.
// Where it cannot tell, they do not.
func SameName(pid, other int) bool {
	if pid <= 0 || other <= 0 {
		return false
	}
	if !procfs() {
		names := psNames(pid, other)
		name, ok := names[pid]
		otherName, otherOK := names[other]
		return ok && otherOK && name == otherName
	}
	name, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return false
	}
	otherName, err := os.ReadFile("/proc/" + strconv.Itoa(other) + "/comm")
	return err == nil && bytes.Equal(name, otherName)
}

// psNames asks one ps for the names of the processes pids.
func psNames(pids ...int) map[int]string {
	list := make([]string, len(pids))
	for i, pid := range pids {
		list[i] = strconv.Itoa(pid)
	}
	out, ok := ps("-o", "pid=,comm=", "-p", strings.Join(list, ","))
	if !ok {
		return nil
	}
	names := map[int]string{}
	for _, line := range strings.Split(out, "\n") {
		pidText, name, _ := strings.Cut(strings.TrimSpace(line), " ")
		if pid, err := strconv.Atoi(pidText); err == nil {
			names[pid] = strings.TrimSpace(name)
		}
	}
	return names
}

// StartedWithin reports whether process pid started less than d ago.
// Where it cannot tell, it did not.
func StartedWithin(pid int, d time.Duration) bool {
	if pid <= 0 {
		return false
	}
	if !procfs() {
		out, ok := ps("-o", "etime=", "-p", strconv.Itoa(pid))
		if !ok {
			return false
		}
		// Whole seconds, cut down: a process e seconds old started
		// between e and e+1 seconds ago, so within d if e < d.
		e, ok := parseElapsed(strings.TrimSpace(out))
		return ok && float64(e) < d.Seconds()
	}
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

// parseElapsed reads ps's etime, [[dd-]hh:]mm:ss, in seconds.
func parseElapsed(s string) (int, bool) {
	days := 0
	if d, rest, ok := strings.Cut(s, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, false
		}
		days, s = n, rest
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	total := 0
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, false
		}
		total = total*60 + n
	}
	return days*86400 + total, true
}

// Holding returns the id of a process of this user, other than this one,
// whose command line holds s, or 0 if none does (or it cannot tell). A
// zombie's command line is empty, and a process a server forked holds
// the server's until it execs.
func Holding(s string) int {
	if s == "" {
		return 0
	}
	if !procfs() {
		return psHolding(s)
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

// psHolding is Holding by one ps of every process: its uid, its pid and
// its whole command line (-ww: not cut to a terminal's width).
func psHolding(s string) int {
	out, ok := ps("-A", "-ww", "-o", "uid=,pid=,args=")
	if !ok {
		return 0
	}
	self, uid := os.Getpid(), os.Getuid()
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || !strings.Contains(line, s) {
			continue
		}
		u, err1 := strconv.Atoi(f[0])
		pid, err2 := strconv.Atoi(f[1])
		if err1 == nil && err2 == nil && u == uid && pid != self {
			return pid
		}
	}
	return 0
}

// psTimeout bounds one ps.
const psTimeout = 2 * time.Second

// ps runs ps with args and returns what it printed, and whether it
// exited 0 (ps -p of a process that is gone exits 1).
func ps(args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), psTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "ps", args...)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	return string(out), err == nil
}
