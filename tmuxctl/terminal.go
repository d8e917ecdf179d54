package tmuxctl

import (
	"context"
	"fmt"
	"strings"
)

// A TerminalLook is what a pane's terminal showed at one moment, for
// telling whether its program waits for input: the pane's process and
// terminal device, the cursor, whether a full-screen program holds the
// alternate screen, and the visible rows. All of it comes from one
// command list, so the rows and the cursor agree.
type TerminalLook struct {
	PID       int    // the pane's first process (pane_pid)
	TTY       string // its terminal device, e.g. /dev/pts/3 (pane_tty)
	CursorX   int
	CursorY   int  // 0 at the top of the screen
	Alternate bool // a full-screen program switched to the alternate screen
	Dead      bool // the program ended; remain-on-exit keeps the pane
	Command   string
	Rows      []string // the visible screen, trailing blanks of each row trimmed
}

// terminalFormat holds numbers, flags and a device path first, and the
// command name last, so a name with spaces cannot shift the fields.
const terminalFormat = "#{pane_id} #{pane_pid} #{pane_tty} #{cursor_x} #{cursor_y} #{alternate_on} #{pane_dead} #{pane_current_command}"

// Terminal reads pane p's terminal as a [TerminalLook]. It only reads
// what tmux holds: it never reads from or writes to the terminal itself.
// A missing pane is a [NotFoundError].
func (c *Client) Terminal(ctx context.Context, p PaneID) (TerminalLook, error) {
	// capture-pane comes first: for a missing pane it fails and the list
	// stops, where display-message would print an empty line and succeed.
	out, err := c.commands(ctx,
		[]string{"capture-pane", "-p", "-t", string(p)},
		[]string{"display-message", "-p", "-t", string(p), terminalFormat},
	)
	if err != nil {
		return TerminalLook{}, err
	}
	look, id, err := parseTerminalLook(out)
	if err != nil {
		return TerminalLook{}, err
	}
	if id != string(p) {
		return TerminalLook{}, &NotFoundError{Kind: "pane", ID: string(p)}
	}
	return look, nil
}

// parseTerminalLook reads Terminal's output: the screen's rows, then the
// one line of terminalFormat.
func parseTerminalLook(out string) (TerminalLook, string, error) {
	out = strings.TrimSuffix(out, "\n")
	body, info := "", out
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		body, info = out[:i], out[i+1:]
	}
	var l TerminalLook
	var id string
	var alt, dead int
	n, err := fmt.Sscanf(info, "%s %d %s %d %d %d %d", &id, &l.PID, &l.TTY, &l.CursorX, &l.CursorY, &alt, &dead)
	if err != nil || n != 7 {
		return TerminalLook{}, "", fmt.Errorf("display-message: reading the pane's terminal %q: %v", info, err)
	}
	if f := strings.SplitN(info, " ", 8); len(f) == 8 {
		l.Command = f[7]
	}
	l.Alternate, l.Dead = alt == 1, dead == 1
	l.Rows = strings.Split(body, "\n")
	for i, r := range l.Rows {
		l.Rows[i] = strings.TrimRight(r, " ")
	}
	return l, id, nil
}
