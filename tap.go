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
// each stream then this instance's own — where a tap cannot check who
// reads it (only Linux has SO_PEERCRED here), where the binary is not
// found, or when TMUX_MCP_NO_TAPS is set (the escape hatch docs/how-it-works.md names).
func tapBinary() string {
	if runtime.GOOS != "linux" || os.Getenv("TMUX_MCP_NO_TAPS") != "" {
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
