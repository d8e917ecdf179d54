package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// tapBinary is the binary tmux runs as a pane's tap: this one, by the name
// it was started with (a test harness dispatches on that name), or "" —
// each stream then this instance's own — unless TMUX_MCP_TAPS=1 asks for
// taps, where a tap cannot check who reads it (only Linux has SO_PEERCRED
// here), or where the binary is not found.
//
// Taps are opt-in for now: a program that prints and exits at once can
// end its tap before an instance's mirror has read its output, and that
// output is then lost to the instance (start_program-cursor and four
// other goldens showed it under the race detector).
func tapBinary() string {
	if runtime.GOOS != "linux" || os.Getenv("TMUX_MCP_TAPS") != "1" {
		return ""
	}
	name := os.Args[0]
	if !strings.Contains(name, "/") {
		p, err := exec.LookPath(name)
		if err != nil {
			return ""
		}
		name = p
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return ""
}
