package tmuxctl

import "strconv"

// signalNames are Linux's signal numbers, which tmux reports for a pane
// whose program a signal ended (pane_dead_signal).
var signalNames = [...]string{
	1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
	7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2",
	13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 16: "SIGSTKFLT", 17: "SIGCHLD",
	18: "SIGCONT", 19: "SIGSTOP", 20: "SIGTSTP", 21: "SIGTTIN", 22: "SIGTTOU",
	23: "SIGURG", 24: "SIGXCPU", 25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF",
	28: "SIGWINCH", 29: "SIGIO", 30: "SIGPWR", 31: "SIGSYS",
}

// SignalName maps a signal number to its name: 15 is "SIGTERM"; a number
// without a name becomes "SIG<n>".
func SignalName(n int) string {
	if n > 0 && n < len(signalNames) {
		return signalNames[n]
	}
	return "SIG" + strconv.Itoa(n)
}
