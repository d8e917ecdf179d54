package tmuxctl_test

import (
	"context"
	"errors"
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

// One pane's reads (display-message -t, which tmux lets fail quietly)
// describe that pane among several, and a pane that is gone, or never
// was, is a NotFoundError for each. A title with strftime's "%" reads
// back as it is: display-message passes only its own format through
// strftime.
func TestOnePaneReadsNameThatPane(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	tmuxtest.Run(t, sock, "split-window", "-t", "%0")
	tmuxtest.Run(t, sock, "split-window", "-t", "%0")
	tmuxtest.Run(t, sock, "split-window", "-t", "%2")
	tmuxtest.Run(t, sock, "kill-pane", "-t", "%3")
	const title = "at %H:%M %% #{pane_id}"
	if err := c.SetPaneTitle(ctx, "%1", title); err != nil {
		t.Fatal(err)
	}
	for _, p := range []tmuxctl.PaneID{"%0", "%1", "%2"} {
		d, err := c.PaneDetail(ctx, p)
		if err != nil || d.ID != p {
			t.Errorf("PaneDetail(%s) = %s, %v", p, d.ID, err)
		}
		s, err := c.Snapshot(ctx, p, false)
		if err != nil || s.ID != p || len(s.Lines) == 0 {
			t.Errorf("Snapshot(%s) = %s with %d lines, %v", p, s.ID, len(s.Lines), err)
		}
		pane, _, err := c.CaptureWithPane(ctx, p, tmuxctl.CaptureOptions{})
		if err != nil || pane.ID != p {
			t.Errorf("CaptureWithPane(%s) = %s, %v", p, pane.ID, err)
		}
		if p == "%1" && (d.Title != title || s.Title != title || pane.Title != title) {
			t.Errorf("title of %s read back as %q, %q, %q; want %q", p, d.Title, s.Title, pane.Title, title)
		}
	}
	for _, p := range []tmuxctl.PaneID{"%3", "%999"} {
		var nf *tmuxctl.NotFoundError
		if _, err := c.PaneDetail(ctx, p); !errors.As(err, &nf) {
			t.Errorf("PaneDetail(%s): %v, want a NotFoundError", p, err)
		}
		if _, err := c.Snapshot(ctx, p, false); !errors.As(err, &nf) {
			t.Errorf("Snapshot(%s): %v, want a NotFoundError", p, err)
		}
		if _, _, err := c.CaptureWithPane(ctx, p, tmuxctl.CaptureOptions{}); !errors.As(err, &nf) {
			t.Errorf("CaptureWithPane(%s): %v, want a NotFoundError", p, err)
		}
	}
}
