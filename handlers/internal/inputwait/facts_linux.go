package inputwait

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// OSFacts returns the facts of this OS: on Linux, /proc.
func OSFacts() Facts { return procFacts{root: "/proc"} }

// procFacts reads /proc: every file it reads is readable by the process's
// own user without ptrace rights, except syscall, which is used where the
// kernel allows it.
type procFacts struct {
	root string
}

// clockTick is USER_HZ, in which /proc gives CPU times: 100 on every Linux.
const clockTick = 10 * time.Millisecond

// statFields are the fields of /proc/PID/stat after "pid (comm)".
type statFields struct {
	comm               string
	state              State
	pgrp, ttyNr, tpgid int
	utime, stime       int64
}

func (f procFacts) stat(pid int) (statFields, error) {
	b, err := os.ReadFile(f.root + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return statFields{}, err
	}
	return parseStat(b)
}

// parseStat reads /proc/PID/stat. comm may hold spaces and parentheses,
// so the fields are counted from the last ')'.
func parseStat(b []byte) (statFields, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return statFields{}, fmt.Errorf("reading stat %q: no command name", b)
	}
	rest := strings.Fields(string(b[end+1:]))
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
	if len(rest) < 13 || len(rest[0]) != 1 {
		return statFields{}, fmt.Errorf("reading stat %q: too few fields", b)
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(rest[i], 10, 64); return v }
	return statFields{
		comm: string(b[open+1 : end]), state: State(rest[0][0]),
		pgrp: int(n(2)), ttyNr: int(n(4)), tpgid: int(n(5)),
		utime: n(11), stime: n(12),
	}, nil
}

func (f procFacts) Foreground(pid int, tty string) (Group, error) {
	lead, err := f.stat(pid)
	if err != nil || lead.state == Zombie {
		return Group{}, ErrNoProcess
	}
	if lead.ttyNr == 0 || lead.tpgid <= 0 {
		return Group{}, ErrNoProcess
	}
	if fi, err := os.Stat(tty); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && uint64(st.Rdev) != uint64(uint32(lead.ttyNr)) {
			// The pane's process left the pane's terminal (setsid):
			// its foreground group is not the pane's.
			return Group{}, fmt.Errorf("process %d is not on %s: %w", pid, tty, ErrNoProcess)
		}
	}
	members := f.members(pid, lead.tpgid)
	g := Group{PGID: lead.tpgid, Source: "/proc"}
	for _, m := range members {
		if p, ok := f.proc(m, tty); ok {
			g.Procs = append(g.Procs, p)
		}
	}
	if len(g.Procs) == 0 {
		return Group{}, fmt.Errorf("foreground group %d of %s has no process: %w", lead.tpgid, tty, ErrNoProcess)
	}
	return g, nil
}

// members returns the processes of group pgid: the descendants of pid
// that are in it, found through /proc/PID/task/TID/children, which is
// cheap; if that finds none (a member was reparented, or the kernel has
// no children files), every process of /proc.
func (f procFacts) members(pid, pgid int) []int {
	var found []int
	seen := map[int]bool{}
	queue := []int{pid}
	for len(queue) > 0 && len(seen) < 4096 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if st, err := f.stat(p); err == nil && st.pgrp == pgid {
			found = append(found, p)
		}
		queue = append(queue, f.children(p)...)
	}
	if len(found) > 0 {
		return found
	}
	entries, err := os.ReadDir(f.root)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := f.stat(p); err == nil && st.pgrp == pgid {
			found = append(found, p)
		}
	}
	return found
}

// children returns the children of every thread of process pid.
func (f procFacts) children(pid int) []int {
	dir := f.root + "/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var kids []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, s := range strings.Fields(string(b)) {
			if k, err := strconv.Atoi(s); err == nil {
				kids = append(kids, k)
			}
		}
	}
	return kids
}

// proc reads what /proc tells of process pid; false if it is gone.
func (f procFacts) proc(pid int, tty string) (Proc, bool) {
	st, err := f.stat(pid)
	if err != nil {
		return Proc{}, false
	}
	dir := f.root + "/" + strconv.Itoa(pid)
	p := Proc{PID: pid, Name: st.comm, State: st.state, CPU: time.Duration(st.utime+st.stime) * clockTick}
	if b, err := os.ReadFile(dir + "/wchan"); err == nil && string(b) != "0" {
		p.WaitChannel = string(b)
	}
	f.readFDs(dir, tty, &p)
	if b, err := os.ReadFile(dir + "/syscall"); err == nil {
		p.Syscall = parseSyscall(b)
	}
	return p, true
}

// readFDs fills in p's descriptors on tty, its sockets, and whether its
// epoll sets watch tty (an epoll's fdinfo lists each watched descriptor
// as "tfd: N").
func (f procFacts) readFDs(dir, tty string, p *Proc) {
	entries, err := os.ReadDir(dir + "/fd")
	if err != nil {
		return
	}
	p.FDsKnown = true
	var epolls []string
	for _, e := range entries {
		target, err := os.Readlink(dir + "/fd/" + e.Name())
		if err != nil {
			continue
		}
		switch {
		case target == tty:
			if n, err := strconv.Atoi(e.Name()); err == nil {
				p.TTYFDs = append(p.TTYFDs, n)
			}
		case strings.HasPrefix(target, "socket:"):
			p.Sockets = true
		case target == "anon_inode:[eventpoll]":
			epolls = append(epolls, e.Name())
		}
	}
	if len(epolls) == 0 {
		return
	}
	p.Epoll = EpollWithoutTTY
	for _, fd := range epolls {
		b, err := os.ReadFile(dir + "/fdinfo/" + fd)
		if err != nil {
			p.Epoll = NoEpoll // cannot tell
			return
		}
		if watchesAny(b, p.TTYFDs) {
			p.Epoll = EpollWithTTY
			return
		}
	}
}

// watchesAny reports whether an epoll's fdinfo lists one of fds.
func watchesAny(fdinfo []byte, fds []int) bool {
	for _, line := range strings.Split(string(fdinfo), "\n") {
		rest, ok := strings.CutPrefix(line, "tfd:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		n, err := strconv.Atoi(fields[0])
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if n == fd {
				return true
			}
		}
	}
	return false
}

// parseSyscall reads /proc/PID/syscall: "running", or the call's number
// and arguments in hex ("0 0x0 0x7ffd… …"), or "-1 …" outside any call.
func parseSyscall(b []byte) Syscall {
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return Syscall{}
	}
	if fields[0] == "running" {
		return Syscall{Kind: SyscallRunning}
	}
	nr, err := strconv.Atoi(fields[0])
	if err != nil || nr < 0 {
		return Syscall{Kind: SyscallOther}
	}
	kind := syscallKind(nr)
	if kind != SyscallRead {
		return Syscall{Kind: kind}
	}
	if len(fields) < 2 {
		return Syscall{}
	}
	fd, err := strconv.ParseInt(strings.TrimPrefix(fields[1], "0x"), 16, 64)
	if err != nil {
		return Syscall{}
	}
	return Syscall{Kind: SyscallRead, FD: int(fd)}
}

// syscallKind sorts system call nr by what it waits for. The calls every
// Linux architecture has are here; poll, select and epoll_wait, which
// only some have, are in readCalls/pollCalls of syscalls_linux_*.go.
func syscallKind(nr int) SyscallKind {
	switch uintptr(nr) {
	case syscall.SYS_READ, syscall.SYS_READV, syscall.SYS_PREAD64:
		return SyscallRead
	case syscall.SYS_PSELECT6, syscall.SYS_PPOLL, syscall.SYS_EPOLL_PWAIT:
		return SyscallPoll
	}
	for _, p := range archPollCalls {
		if uintptr(nr) == p {
			return SyscallPoll
		}
	}
	return SyscallOther
}
