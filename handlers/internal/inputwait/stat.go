package inputwait

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// statFields are the fields of /proc/PID/stat after "pid (comm)".
type statFields struct {
	comm               string
	state              State
	pgrp, ttyNr, tpgid int
	utime, stime       int64
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
