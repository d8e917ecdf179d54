package handlers

import (
	"context"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestListPanesKnowsANewPanesCwd: list_panes asked right after tmux made a
// pane (its forked process may not have taken the pane's terminal yet, when
// tmux cannot read its cwd) still names the pane's cwd.
func TestListPanesKnowsANewPanesCwd(t *testing.T) {
	h, client, _ := testHandlers(t, DefaultLimits, tmuxctl.Config{})
	ctx := context.Background()
	dir := t.TempDir()
	for i := range 40 {
		c, err := client.NewWindow(ctx, "$0", tmuxctl.NewWindowOptions{Spawn: tmuxctl.Spawn{Argv: []string{"sleep", "30"}, Cwd: dir}})
		if err != nil {
			t.Fatal(err)
		}
		window := string(c.Window)
		out, err := h.ListPanes(ctx, gen.ListPanesInput{WindowID: &window})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Panes) != 1 || out.Panes[0].Cwd != dir {
			t.Fatalf("window %d: list_panes of a new pane gave %+v, want cwd %s", i, out.Panes, dir)
		}
		if err := client.KillWindow(ctx, c.Window); err != nil {
			t.Fatal(err)
		}
	}
}
