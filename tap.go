package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// tapBinary is the binary started as the stream host of a tmux server
// (live.HostWord): this one, by the name it was started with (a test
// harness dispatches on that name), or "" — each stream then this
// instance's own — where the host cannot check who reads it (live.ReadersChecked: Linux, macOS and FreeBSD can), where the
// binary is not found, or when TMUX_MCP_NO_TAPS is set (the escape hatch
// docs/how-it-works.md names).
func tapBinary() string {
	if !live.ReadersChecked() || os.Getenv("TMUX_MCP_NO_TAPS") != "" {
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
