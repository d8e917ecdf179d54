package inputwait

import (
	"errors"
	"time"
)

// Facts tells what the operating system lets this user read about the
// processes of a terminal's foreground process group. There is one
// implementation per OS (facts_*.go); tests fake it.
type Facts interface {
	// Foreground returns the foreground process group of terminal tty,
	// found from pid, a process that has tty as its controlling terminal
	// (the pane's first process).
	Foreground(pid int, tty string) (Group, error)
}

// ErrNoProcess means the pane's first process is gone or has no
// controlling terminal, so there is no foreground group to judge.
var ErrNoProcess = errors.New("no process on the pane's terminal")

// A Group is one look at a terminal's foreground process group.
type Group struct {
	PGID   int
	Procs  []Proc
	Source string // where the facts came from: "/proc" or "ps"
}

// A State is a process's scheduling state, in the letters /proc and ps
// share.
type State byte

const (
	Running  State = 'R'
	Sleeping State = 'S' // an interruptible sleep: waiting for something
	Idle     State = 'I' // BSD ps: asleep for more than about 20 s
	DiskWait State = 'D' // uninterruptible: busy with the disk or the kernel
	Stopped  State = 'T'
	Zombie   State = 'Z'
)

// A Proc is what is known of one process of the group. A zero field is
// unknown where the OS does not tell it (see the Known flags).
type Proc struct {
	PID   int
	Name  string // the program's name (comm)
	State State
	CPU   time.Duration // user and system time so far; -1 where unknown

	// WaitChannel is the kernel function it sleeps in ("wait_woken",
	// "poll_schedule_timeout.constprop.0", FreeBSD's "ttyin"); "" where
	// the OS does not say.
	WaitChannel string

	FDsKnown bool  // TTYFDs, Sockets and Epoll were read
	TTYFDs   []int // its descriptors open on the pane's terminal
	Sockets  bool  // it has a socket open: a wait_woken may be a recv
	Epoll    Epoll // whether its epoll sets watch the terminal

	Syscall Syscall // what /proc/PID/syscall says, where it can be read
}

// An Epoll says whether a process's epoll sets watch the pane's terminal.
type Epoll int

const (
	NoEpoll         Epoll = iota // it has no epoll set, or they cannot be read
	EpollWithTTY                 // an epoll set of it holds a descriptor of the terminal
	EpollWithoutTTY              // it has epoll sets and none holds the terminal
)

// A Syscall is the system call a sleeping process is in, as
// /proc/PID/syscall shows it to a reader with ptrace rights.
type Syscall struct {
	Kind SyscallKind
	FD   int // the descriptor read, for SyscallRead
}

// A SyscallKind sorts system calls by what they wait for.
type SyscallKind int

const (
	SyscallUnknown SyscallKind = iota // unreadable (no ptrace rights, or no /proc)
	SyscallRunning                    // not in a system call: on a CPU
	SyscallRead                       // read, readv, pread of one descriptor
	SyscallPoll                       // poll, select or an epoll wait
	SyscallOther                      // anything else: a sleep, a wait for a child, a recv…
)
