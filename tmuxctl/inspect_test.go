package tmuxctl_test

import (
	"context"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A server kept running with no sessions (exit-empty off) has no panes to
// list; ServerInfo still describes it.
func TestServerInfoWithoutSessions(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "set-option", "-s", "exit-empty", "off")
	tmuxtest.Run(t, sock, "kill-session", "-t", "main")
	c := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	info, err := c.ServerInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version == "" || info.PID <= 0 || info.SocketPath == "" || info.Sessions != 0 || info.Windows != 0 || info.Panes != 0 {
		t.Errorf("ServerInfo = %+v, want a version, pid and socket and no sessions, windows or panes", info)
	}
}
