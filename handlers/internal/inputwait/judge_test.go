package inputwait

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const pts = "/dev/pts/3"

// proc is a fake process of group 100 on pts, asleep with fds 0-2 on it.
func proc(wchan string, mods ...func(*Proc)) Proc {
	p := Proc{PID: 100, Name: "prog", State: Sleeping, CPU: 50 * time.Millisecond,
		WaitChannel: wchan, FDsKnown: true, TTYFDs: []int{0, 1, 2}}
	for _, m := range mods {
		m(&p)
	}
	return p
}

func sockets(p *Proc)    { p.Sockets = true }
func noTTY(p *Proc)      { p.TTYFDs = nil }
func epollTTY(p *Proc)   { p.Epoll = EpollWithTTY }
func epollNoTTY(p *Proc) { p.Epoll = EpollWithoutTTY }
func running(p *Proc)    { p.State = Running }
func readFD(fd int) func(*Proc) {
	return func(p *Proc) { p.Syscall = Syscall{Kind: SyscallRead, FD: fd} }
}
func inCall(k SyscallKind) func(*Proc) { return func(p *Proc) { p.Syscall = Syscall{Kind: k} } }

// psProc is a process as ps shows it on macOS: no descriptors, no wait
// channel.
func psProc(state State, cpu time.Duration) Proc {
	return Proc{PID: 100, Name: "prog", State: state, CPU: cpu}
}

var (
	atPrompt   = Screen{Rows: []string{"hello", "Overwrite? [y/N]"}, CursorX: 17, CursorY: 1}
	afterLines = Screen{Rows: []string{"line one", "line two", ""}, CursorX: 0, CursorY: 2}
	fullScreen = Screen{Rows: []string{"~", "~", "-- INSERT --"}, CursorX: 3, CursorY: 0, Alternate: true}
	// spinnerBefore and spinnerAfter are two frames of a spinner.
	spinnerBefore = Screen{Rows: []string{"working |"}, CursorX: 10, CursorY: 0}
	spinnerAfter  = Screen{Rows: []string{"working /"}, CursorX: 10, CursorY: 0}
)

func TestJudge(t *testing.T) {
	group := func(ps ...Proc) Group { return Group{PGID: 100, Procs: ps, Source: "/proc"} }
	for _, tc := range []struct {
		name   string
		o      Observation
		want   bool
		prompt string
		says   string // in the evidence
	}{
		{"tty read, no prompt (cat)", Observation{Group: group(proc("wait_woken")), Screen: afterLines}, true, "", "sleeps reading in wait_woken"},
		{"tty read at a prompt", Observation{Group: group(proc("wait_woken")), Screen: atPrompt}, true, "Overwrite? [y/N]", "fd 0,1,2 on /dev/pts/3"},
		{"n_tty_read", Observation{Group: group(proc("n_tty_read")), Screen: afterLines}, true, "", "n_tty_read"},
		{"wait_woken with a socket: a recv, no prompt", Observation{Group: group(proc("wait_woken", sockets)), Screen: afterLines}, false, "", "a recv"},
		{"wait_woken with a socket at a prompt", Observation{Group: group(proc("wait_woken", sockets)), Screen: atPrompt}, true, "Overwrite? [y/N]", "cursor after text"},
		{"wait_woken without the terminal", Observation{Group: group(proc("wait_woken", noTTY)), Screen: atPrompt}, false, "", "no fd on"},
		{"syscall: read of the terminal", Observation{Group: group(proc("wait_woken", sockets, readFD(0))), Screen: afterLines}, true, "", "reads fd 0"},
		{"syscall: read of a socket", Observation{Group: group(proc("wait_woken", readFD(5))), Screen: atPrompt}, false, "", "reads fd 5, not the terminal"},
		{"syscall: a sleep", Observation{Group: group(proc("hrtimer_nanosleep", inCall(SyscallOther))), Screen: atPrompt}, false, "", "not on the terminal"},
		{"syscall: running", Observation{Group: group(proc("", inCall(SyscallRunning))), Screen: atPrompt}, false, "", "running"},
		{"poll at a prompt (a REPL)", Observation{Group: group(proc("poll_schedule_timeout.constprop.0")), Screen: atPrompt}, true, "Overwrite? [y/N]", "cursor after text"},
		{"poll after whole lines (tail -f)", Observation{Group: group(proc("poll_schedule_timeout.constprop.0")), Screen: afterLines}, false, "", "no prompt at the cursor"},
		{"poll in a full-screen program", Observation{Group: group(proc("do_select")), Screen: fullScreen}, true, "-- INSERT --", "alternate screen"},
		{"poll without the terminal", Observation{Group: group(proc("do_sys_poll", noTTY)), Screen: atPrompt}, false, "", "no fd on"},
		{"epoll watching the terminal", Observation{Group: group(proc("do_epoll_wait", epollTTY)), Screen: afterLines}, true, "", "epoll set watching"},
		{"epoll not watching the terminal", Observation{Group: group(proc("do_epoll_wait", epollNoTTY)), Screen: atPrompt}, false, "", "not watching"},
		{"a sleep", Observation{Group: group(proc("hrtimer_nanosleep")), Screen: atPrompt}, false, "", "hrtimer_nanosleep"},
		{"running", Observation{Group: group(proc("", running)), Screen: atPrompt}, false, "", "is running"},
		{"one of two running", Observation{Group: group(proc("wait_woken"), proc("", running, func(p *Proc) { p.PID = 101 })), Screen: atPrompt}, false, "", "is running"},
		{"a pipeline: shell waits for its child, child reads", Observation{Group: group(proc("do_wait", noTTY), proc("wait_woken", func(p *Proc) { p.PID, p.Name = 101, "cat" })), Screen: afterLines}, true, "", "cat (101)"},
		{"a pipeline: all on pipes", Observation{Group: group(proc("anon_pipe_read"), proc("hrtimer_nanosleep", func(p *Proc) { p.PID = 101 })), Screen: atPrompt}, false, "", "anon_pipe_read"},
		{"stopped", Observation{Group: group(proc("do_signal_stop", func(p *Proc) { p.State = Stopped })), Screen: atPrompt}, false, "", "stopped"},
		{"no foreground process", Observation{GroupErr: ErrNoProcess, Screen: atPrompt}, false, "", "no foreground process"},
		{"no facts on this OS: the screen decides", Observation{GroupErr: errors.New("no /proc"), Screen: atPrompt}, true, "Overwrite? [y/N]", "no process facts"},
		{"no facts on this OS, no prompt", Observation{GroupErr: errors.New("no /proc"), Screen: afterLines}, false, "", "no process facts"},
		{"CPU moved between looks", Observation{Group: group(proc("wait_woken", func(p *Proc) { p.CPU = 150 * time.Millisecond })),
			Before: &Group{Procs: []Proc{proc("wait_woken")}}, Between: 100 * time.Millisecond, Screen: atPrompt}, false, "", "of CPU in"},
		{"CPU still between looks", Observation{Group: group(proc("wait_woken")),
			Before: &Group{Procs: []Proc{proc("wait_woken")}}, Between: 100 * time.Millisecond, Screen: atPrompt}, true, "Overwrite? [y/N]", "CPU time still"},
		// A spinner polling its input whose output the stream has not
		// brought yet: tmux's screen moved between the looks.
		{"the screen changed between looks", Observation{Group: group(proc("do_select")),
			Before: &Group{Procs: []Proc{proc("do_select")}}, ScreenBefore: &spinnerBefore, Between: 50 * time.Millisecond, Screen: spinnerAfter}, false, "", "the screen changed in 50ms"},
		{"the screen stayed between looks", Observation{Group: group(proc("do_select")),
			Before: &Group{Procs: []Proc{proc("do_select")}}, ScreenBefore: &spinnerAfter, Between: 50 * time.Millisecond, Screen: spinnerAfter}, true, "working /", "cursor after text"},
		{"no facts on this OS, the screen changed", Observation{GroupErr: errors.New("no /proc"),
			ScreenBefore: &spinnerBefore, Between: 50 * time.Millisecond, Screen: spinnerAfter}, false, "", "the screen changed"},
		{"the cursor alone moved", Observation{Group: group(proc("wait_woken")),
			ScreenBefore: &Screen{Rows: atPrompt.Rows, CursorX: 16, CursorY: 1}, Between: 50 * time.Millisecond, Screen: atPrompt}, false, "", "the screen changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.TTY = pts
			v := Judge(tc.o)
			ev := strings.Join(v.Evidence, "; ")
			if v.Waiting != tc.want || v.Prompt != tc.prompt || !strings.Contains(ev, tc.says) {
				t.Errorf("Judge = waiting %v, prompt %q, evidence %q; want %v, %q, evidence with %q",
					v.Waiting, v.Prompt, ev, tc.want, tc.prompt, tc.says)
			}
		})
	}
}

// TestJudgeWithPS judges the facts macOS and FreeBSD give (ps: state,
// CPU time, a wait channel on FreeBSD only), parsed from ps's own output.
func TestJudgeWithPS(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after string // ps output of two looks 100 ms apart
		screen        Screen
		want          bool
		says          string
	}{
		{"FreeBSD: a terminal read",
			"  100   100   100 S+   0:00.01 ttyin  cat\n  90 90 100 Ss 0:00.02 wait bash\n",
			"  100   100   100 S+   0:00.01 ttyin  cat\n  90 90 100 Ss 0:00.02 wait bash\n",
			afterLines, true, "sleeps reading in ttyin"},
		{"FreeBSD: select at a prompt",
			"  100   100   100 S+   0:00.01 select  python3\n", "  100   100   100 S+   0:00.01 select  python3\n",
			atPrompt, true, "cursor after text"},
		{"FreeBSD: a sleep after Password:",
			"  100   100   100 S+   0:00.00 nanslp  sleep\n", "  100   100   100 S+   0:00.00 nanslp  sleep\n",
			Screen{Rows: []string{"Password:"}, CursorX: 10}, false, "nanslp"},
		{"macOS: asleep at a prompt, CPU still",
			"  100   100   100 S+   0:00.03 -  /usr/bin/python3\n", "  100   100   100 S+   0:00.03 -  /usr/bin/python3\n",
			atPrompt, true, "names no wait channel"},
		{"macOS: asleep, no prompt",
			"  100   100   100 S+   0:00.03 -  /bin/sleep\n", "  100   100   100 S+   0:00.03 -  /bin/sleep\n",
			afterLines, false, "no prompt at the cursor"},
		{"macOS: asleep at a prompt, CPU moving",
			"  100   100   100 S+   0:01.00 -  spinner\n", "  100   100   100 S+   0:01.30 -  spinner\n",
			atPrompt, false, "of CPU in"},
		{"macOS: running",
			"  100   100   100 R+   0:05.00 -  spin\n", "  100   100   100 R+   0:05.10 -  spin\n",
			atPrompt, false, "is running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err1 := parsePS(tc.before)
			after, err2 := parsePS(tc.after)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			v := Judge(Observation{TTY: "/dev/ttys003", Group: after, Before: &before, Between: 100 * time.Millisecond, Screen: tc.screen, Quiet: -1})
			ev := strings.Join(v.Evidence, "; ")
			if v.Waiting != tc.want || !strings.Contains(ev, tc.says) {
				t.Errorf("Judge = waiting %v, evidence %q; want %v with %q", v.Waiting, ev, tc.want, tc.says)
			}
		})
	}
}

func TestParsePS(t *testing.T) {
	g, err := parsePS("  90    90   100 Ss   0:00.02 wait   -bash\n  100   100   100 S+   1:02.50 ttyin  my prog\n  101   100   100 S+   0:00.00 piperd /usr/bin/grep\n")
	if err != nil {
		t.Fatal(err)
	}
	if g.PGID != 100 || len(g.Procs) != 2 || g.Procs[0].Name != "my prog" || g.Procs[1].Name != "grep" ||
		g.Procs[0].CPU != 62500*time.Millisecond || g.Procs[0].WaitChannel != "ttyin" {
		t.Errorf("parsePS = %+v", g)
	}
	if _, err := parsePS(""); !errors.Is(err, ErrNoProcess) {
		t.Errorf("parsePS of nothing = %v, want ErrNoProcess", err)
	}
	if d := parsePSTime("1:00:01.5"); d != time.Hour+1500*time.Millisecond {
		t.Errorf("parsePSTime = %v", d)
	}
}

func TestScreenPrompt(t *testing.T) {
	for _, tc := range []struct {
		s    Screen
		want string
	}{
		{atPrompt, "Overwrite? [y/N]"},
		{afterLines, ""},
		{Screen{Rows: []string{"Password:", ""}, CursorY: 1}, "Password:"},
		{Screen{Rows: []string{">>> "}, CursorX: 4}, ">>>"},
		{fullScreen, "-- INSERT --"},
	} {
		if got := tc.s.Prompt(); got != tc.want {
			t.Errorf("Prompt of %q = %q, want %q", tc.s.Rows, got, tc.want)
		}
	}
}
