package main

import (
	"io"
	"time"

	"github.com/tmux-mcp/tmux-mcp/cli"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// cliEnv hands a subcommand the configuration the flags set.
func cliEnv(cfg config, tier tools.Class, sel tools.Selection, stdin io.Reader, stdout, stderr io.Writer) cli.Env {
	return cli.Env{
		Version: version,
		Tmux:    tmuxctl.Config{Binary: cfg.tmuxBin, SocketName: cfg.socketName, SocketPath: cfg.socketPath, TmuxClient: cfg.tmuxClient},
		Server: server.Options{
			Version: version,
			Limits: handlers.Limits{
				WaitCeiling: time.Duration(cfg.waitCeilingMs) * time.Millisecond,
				MaxLines:    cfg.maxLines,
				MaxBytes:    cfg.maxBytes,
				StartGrace:  cfg.startGrace,
				NoMarks:     cfg.noShellMarks,
			},
			Live:  live.Options{BufferBytes: cfg.streamBuffer, Idle: cfg.streamIdle, ExitGrace: cfg.exitGrace},
			Tier:  tier,
			Tools: sel,
		},
		Args:   cfg.args,
		Stdin:  stdin,
		Stdout: stdout,
		Stderr: stderr,
	}
}
