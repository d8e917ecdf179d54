// Package inputwait says whether the program in a tmux pane waits for
// terminal input, and gives the evidence it used.
//
// No single fact decides, so a [Verdict] combines what the operating
// system lets the same user read about the processes of the pane
// terminal's foreground process group with what tmux shows of the pane:
//
//   - every process of the group asleep: none runnable, none in disk
//     wait, none stopped;
//   - what they sleep in. On Linux: /proc/PID/wchan (a read of a terminal
//     sleeps in wait_woken or n_tty_read; poll, select and epoll in
//     poll_schedule_timeout, do_select, do_epoll_wait…), the descriptors
//     of /proc/PID/fd that are the pane's terminal, the descriptors an
//     epoll set watches (/proc/PID/fdinfo), and /proc/PID/syscall where
//     the kernel lets us read it (it needs ptrace rights, which Yama
//     refuses for processes that are not our descendants, as pane programs
//     are not): a read's descriptor there settles the question. On macOS
//     and FreeBSD: ps's state, wait channel (FreeBSD names a terminal read
//     ttyin) and CPU time;
//   - CPU time not moving between two looks;
//   - how long the pane has printed nothing (the caller's stream knows;
//     a program that redraws a spinner is working, not waiting);
//   - the screen: the text before the cursor on its row, the last
//     non-empty line (a question, [y/N], Password:, a REPL's >>> or a
//     shell's $), and whether a full-screen program holds the alternate
//     screen.
//
// A process asleep reading the terminal, with no socket that a wait_woken
// could also be, or polling an epoll set that holds the terminal, is
// strong evidence on its own. A process asleep in poll or select with the
// terminal among its descriptors (a shell at its prompt, a REPL, an
// editor — and also tail -f) is weak evidence: it counts only with a
// prompt on the screen or a full-screen program showing.
//
// The terminal's mode (canonical or raw) is not used: only a descriptor
// of the terminal can ask for it (tcgetattr), and this package never opens
// the pane's terminal, never reads from it or writes to it, never sends
// keys, never attaches and never ptraces. tmux's alternate-screen flag
// stands in for it.
//
// [Engine.Check] judges a pane once; a [Watcher] judges it repeatedly as a
// wait goes on, after the pane has been quiet for [Quiet], for the tools
// that stop when their program asks for input. The OS facts come through
// the small [Facts] interface, one implementation per OS (build tags), so
// the decision ([Judge]) is the same everywhere and is tested with faked
// facts.
package inputwait
