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

// A title holding "$" before a name, "${" and a "$" ending the value reads
// back exactly from a listing, one pane's details and a snapshot: tmux 3.4
// prints a backslash before such a "$" (and the last one is followed by a
// separator when read). No backslash in the title: tmux 3.7 stores it
// doubled, and set_pane_title refuses it.
func TestTitleWithDollarsReadsBack(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	const title = `$HOME ${x} $1 $_ end$`
	pane := tmuxctl.PaneID("%0")
	if err := c.SetPaneTitle(ctx, pane, title); err != nil {
		t.Fatal(err)
	}
	p, err := c.Pane(ctx, pane)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.PaneDetail(ctx, pane)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Snapshot(ctx, pane, false)
	if err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]string{"Pane": p.Title, "PaneDetail": d.Title, "Snapshot": s.Title} {
		if got != title {
			t.Errorf("%s title = %q, want %q", what, got, title)
		}
	}
}
