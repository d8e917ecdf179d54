package inputwait

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// psArgs is the ps command line that psFacts runs for a terminal: every
// process on it, with its group, the terminal's foreground group, its
// state, CPU time and wait channel, and its name last (a name may hold
// spaces). macOS and FreeBSD ps both take it.
func psArgs(tty string) []string {
	return []string{"-o", "pid=,pgid=,tpgid=,stat=,time=,wchan=,comm=", "-t", tty}
}

// parsePS reads the output of ps with psArgs into the foreground group:
// the rows whose group is the terminal's foreground group. ps tells no
// descriptors and no system call, so FDsKnown stays false.
func parsePS(out string) (Group, error) {
	g := Group{Source: "ps"}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 {
			continue
		}
		pid, err1 := strconv.Atoi(f[0])
		pgid, err2 := strconv.Atoi(f[1])
		tpgid, err3 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || err3 != nil {
			return Group{}, fmt.Errorf("reading ps line %q: not numbers", line)
		}
		if tpgid <= 0 || pgid != tpgid {
			continue
		}
		g.PGID = tpgid
		p := Proc{PID: pid, State: State(f[3][0]), CPU: parsePSTime(f[4])}
		if w := f[5]; w != "-" {
			p.WaitChannel = w
		}
		if len(f) > 6 {
			p.Name = strings.Join(f[6:], " ")
		}
		if i := strings.LastIndexByte(p.Name, '/'); i >= 0 {
			p.Name = p.Name[i+1:]
		}
		g.Procs = append(g.Procs, p)
	}
	if len(g.Procs) == 0 {
		return Group{}, ErrNoProcess
	}
	return g, nil
}

// parsePSTime reads ps's cumulative CPU time, [[hh:]mm:]ss.cc; -1 if it
// cannot.
func parsePSTime(s string) time.Duration {
	var d time.Duration
	parts := strings.Split(s, ":")
	for i, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return -1
		}
		unit := time.Second
		switch len(parts) - 1 - i {
		case 1:
			unit = time.Minute
		case 2:
			unit = time.Hour
		}
		d += time.Duration(v * float64(unit))
	}
	return d
}
