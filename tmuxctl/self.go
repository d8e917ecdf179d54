package tmuxctl

import (
	"os"
	"strings"
)

// Self returns the pane this process runs in when that pane belongs to c's
// server, read from $TMUX (socket path) and $TMUX_PANE. Tools that type,
// kill or respawn use it to refuse to act on the agent's own pane.
func (c *Client) Self() (PaneID, bool) {
	pane := os.Getenv("TMUX_PANE")
	socket, _, _ := strings.Cut(os.Getenv("TMUX"), ",")
	if pane == "" || socket == "" || absPath(socket) != c.SocketPath() {
		return "", false
	}
	return PaneID(pane), true
}
