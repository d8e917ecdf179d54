package inputwait

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Verdict says whether a pane's program waits for terminal input.
type Verdict struct {
	Waiting  bool
	Prompt   string   // the question as the screen shows it; "" when none shows
	Program  string   // the foreground program's name
	Evidence []string // short facts the verdict rests on, strongest first
	Dead     bool     // the pane's program has exited
}

// An Observation is everything a verdict rests on.
type Observation struct {
	TTY      string // the pane's terminal, for the evidence
	Group    Group  // a look at the terminal's foreground group
	GroupErr error  // why there is no Group: ErrNoProcess, or no facts on this OS

	// Before is an earlier look at the group, Between before Group, to
	// see whether CPU time moved; nil for a single look. ScreenBefore is
	// the screen at that look, to see whether the program printed: the
	// caller's quiet comes from its stream, which a loaded machine can
	// hold back while tmux's screen moves on.
	Before       *Group
	ScreenBefore *Screen
	Between      time.Duration

	Screen Screen
	Quiet  time.Duration // how long the pane has printed nothing; < 0 unknown
}

// strength is how much a process's sleep says it waits for the terminal.
type strength int

const (
	none   strength = iota // it waits for something else
	weak                   // it may: it counts with a prompt or a full-screen program showing
	strong                 // it does
)

// busyCPU is the CPU time between two looks that says a group works:
// two clock ticks, or a tenth of the time between the looks. A program
// that polls its input a few times a second stays far below it.
func busyCPU(between time.Duration) time.Duration {
	return max(2*clockTick, between/10)
}

// ttyReadChannels are the wait channels of a read of a terminal: Linux
// sleeps in wait_woken (also a socket recv's) or n_tty_read, FreeBSD in
// ttyin.
var ttyReadChannels = []string{"wait_woken", "n_tty_read", "ttyin", "ttyrd"}

// pollChannels are the prefixes of the wait channels of a wait on several
// descriptors: poll, select, epoll (Linux), select and kqueue (BSD).
var pollChannels = []string{"poll_schedule_timeout", "do_select", "core_sys_select", "do_sys_poll",
	"do_epoll_wait", "ep_poll", "select", "kqread", "poll"}

func hasPrefixIn(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Judge decides from o whether the pane's program waits for input. It is
// the same on every OS: the OS only changes which facts o holds.
func Judge(o Observation) Verdict {
	v := Verdict{Program: leaderName(o.Group)}
	if o.GroupErr != nil || len(o.Group.Procs) == 0 {
		if errors.Is(o.GroupErr, ErrNoProcess) || o.GroupErr == nil {
			v.Evidence = append(v.Evidence, "no foreground process on "+o.TTY)
			return v
		}
		// No process facts on this OS: the screen alone, as weak evidence.
		v.Evidence = append(v.Evidence, "no process facts here ("+o.GroupErr.Error()+")")
		if screenMoved(&v, o) {
			return v
		}
		return screenDecides(v, o, weak)
	}

	best, bestWhy, waiter := none, "", Proc{}
	var against []string
	for _, p := range o.Group.Procs {
		s, why := classify(p, o.TTY)
		switch {
		case s < 0:
			against = append(against, why)
		case s > best || bestWhy == "":
			best, bestWhy, waiter = s, why, p
		}
	}
	if len(against) > 0 {
		v.Evidence = append(v.Evidence, against...)
		return v
	}
	if best == none {
		v.Evidence = append(v.Evidence, bestWhy)
		return v
	}
	v.Program = waiter.Name
	v.Evidence = append(v.Evidence, bestWhy)
	if screenMoved(&v, o) {
		return v
	}
	if o.Before != nil {
		used, ok := cpuBetween(*o.Before, o.Group)
		if ok && used >= busyCPU(o.Between) {
			v.Evidence = append(v.Evidence, fmt.Sprintf("used %s of CPU in %s", used, o.Between.Round(time.Millisecond)))
			return v
		}
		if ok {
			v.Evidence = append(v.Evidence, fmt.Sprintf("CPU time still over %s", o.Between.Round(time.Millisecond)))
		}
	}
	return screenDecides(v, o, best)
}

// screenMoved reports whether the screen changed between o's two looks
// (the program printed), adding it to v's evidence.
func screenMoved(v *Verdict, o Observation) bool {
	if o.ScreenBefore == nil || o.ScreenBefore.Same(o.Screen) {
		return false
	}
	v.Evidence = append(v.Evidence, "the screen changed in "+o.Between.Round(time.Millisecond).String())
	return true
}

// screenDecides finishes a verdict whose processes wait with strength s:
// strong is waiting whatever the screen shows; weak needs the cursor just
// after text (a prompt) or a full-screen program.
func screenDecides(v Verdict, o Observation, s strength) Verdict {
	v.Prompt = o.Screen.Prompt()
	if o.Quiet >= 0 {
		v.Evidence = append(v.Evidence, "no output for "+o.Quiet.Round(time.Millisecond).String())
	}
	switch {
	case s == strong:
		v.Waiting = true
	case o.Screen.Alternate:
		v.Waiting = true
		v.Evidence = append(v.Evidence, "full-screen program (alternate screen)")
	case o.Screen.CursorAfterText():
		v.Waiting = true
		v.Evidence = append(v.Evidence, "cursor after text on its row")
	default:
		v.Evidence = append(v.Evidence, "no prompt at the cursor")
	}
	return v
}

// classify says how much process p's state says it waits for the
// terminal tty, and why; a negative strength means p is working (running,
// in disk wait or stopped), which rules the group out.
func classify(p Proc, tty string) (strength, string) {
	who := p.Name + " (" + strconv.Itoa(p.PID) + ")"
	switch p.State {
	case Running:
		return -1, who + " is running"
	case DiskWait:
		return -1, who + " is in disk wait"
	case Stopped, 't':
		return -1, who + " is stopped"
	case Zombie:
		return none, who + " has exited"
	}
	wchan := p.WaitChannel
	onTTY := " on " + tty
	if len(p.TTYFDs) > 0 {
		onTTY = " with fd " + fds(p.TTYFDs) + " on " + tty
	}
	switch p.Syscall.Kind {
	case SyscallRunning:
		return -1, who + " is running"
	case SyscallRead:
		if slices.Contains(p.TTYFDs, p.Syscall.FD) {
			return strong, fmt.Sprintf("%s reads fd %d, %s (syscall)", who, p.Syscall.FD, tty)
		}
		return none, fmt.Sprintf("%s reads fd %d, not the terminal (syscall)", who, p.Syscall.FD)
	case SyscallOther:
		return none, who + " sleeps in " + orUnknown(wchan) + ", not on the terminal (syscall)"
	}
	noTTY := p.FDsKnown && len(p.TTYFDs) == 0
	switch {
	case wchan == "":
		if p.State == Sleeping || p.State == Idle {
			return weak, who + " is asleep (the OS names no wait channel)"
		}
		return none, who + " is in state " + string(p.State)
	case hasPrefixIn(wchan, ttyReadChannels):
		switch {
		case noTTY:
			return none, who + " sleeps in " + wchan + " with no fd on " + tty
		case p.Sockets:
			return weak, who + " sleeps in " + wchan + onTTY + " (a read, or a recv on its socket)"
		}
		return strong, who + " sleeps reading in " + wchan + onTTY
	case hasPrefixIn(wchan, pollChannels):
		switch {
		case p.Epoll == EpollWithTTY:
			return strong, who + " sleeps in " + wchan + ", its epoll set watching " + tty
		case p.Epoll == EpollWithoutTTY && strings.Contains(wchan, "ep"):
			return none, who + " sleeps in " + wchan + ", its epoll sets not watching " + tty
		case noTTY:
			return none, who + " sleeps in " + wchan + " with no fd on " + tty
		}
		return weak, who + " sleeps in " + wchan + onTTY
	}
	return none, who + " sleeps in " + wchan + ", not on the terminal"
}

// cpuBetween is the CPU time the processes in both looks used between
// them; false if no process is in both or a time is unknown.
func cpuBetween(before, after Group) (time.Duration, bool) {
	var used time.Duration
	found := false
	for _, a := range after.Procs {
		for _, b := range before.Procs {
			if a.PID == b.PID && a.CPU >= 0 && b.CPU >= 0 {
				used += a.CPU - b.CPU
				found = true
			}
		}
	}
	return used, found
}

func leaderName(g Group) string {
	for _, p := range g.Procs {
		if p.PID == g.PGID {
			return p.Name
		}
	}
	if len(g.Procs) > 0 {
		return g.Procs[0].Name
	}
	return ""
}

func fds(list []int) string {
	s := make([]string, len(list))
	for i, n := range list {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func orUnknown(s string) string {
	if s == "" {
		return "an unnamed wait"
	}
	return s
}
