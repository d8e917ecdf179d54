package tmuxctl

import "testing"

// tmux 3.8 reads the shell's prompt marks itself; before 3.8 the formats
// that tell them expand to nothing, and a pane says nothing of them.
func TestPaneFromShellMarks(t *testing.T) {
	for _, c := range []struct {
		name                string
		last, running, stat string
		marked, runs        bool
		status              int // -1: none
	}{
		{"before 3.8", "", "", "", false, false, -1},
		{"3.8, no marks", "", "0", "", false, false, -1},
		{"3.8, at a prompt", "1765000000", "0", "", true, false, -1},
		{"3.8, a command runs", "1765000000", "1", "", true, true, -1},
		{"3.8, one ended with 7", "1765000000", "0", "7", true, false, 7},
	} {
		p := paneFrom(map[string]string{"pane_id": "%1", "pane_last_prompt_time": c.last,
			"pane_command_running": c.running, "pane_command_status": c.stat})
		status := -1
		if p.CommandStatus != nil {
			status = *p.CommandStatus
		}
		if p.ShellMarked != c.marked || p.CommandRuns != c.runs || status != c.status {
			t.Errorf("%s: marked %v, runs %v, status %d; want %v, %v, %d",
				c.name, p.ShellMarked, p.CommandRuns, status, c.marked, c.runs, c.status)
		}
	}
}
