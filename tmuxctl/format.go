package tmuxctl

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// A format is a list of tmux format variables to read per row, e.g.
// {"pane_id", "pane_title"}. Values may contain anything a program can put in
// a title or path — tabs, newlines, our own separators — so rows and fields
// are delimited by a random token tmux prints and no pane can predict.
// Variables whose values are ids, numbers, flags or names tmux makes (see
// plainVariables) are printed first, one space apart, as one field: tmux
// copies a format's literal text a byte at a time, and a pane's detail
// took 35 µs longer with a token between every two of its 31 variables.
type format []string

// plainVariables hold values no program chooses and no space can be in:
// ids, numbers, 0/1 flags, mode names, layouts.
var plainVariables = map[string]bool{
	"pane_id": true, "session_id": true, "window_id": true, "window_index": true, "pane_index": true,
	"pane_left": true, "pane_top": true, "pane_width": true, "pane_height": true, "pane_active": true,
	"pane_pid": true, "pane_dead": true, "pane_dead_status": true, "pane_dead_signal": true,
	"pane_in_mode": true, "history_size": true, "history_limit": true, "pane_pipe": true, "pid": true,
	"cursor_x": true, "cursor_y": true, "alternate_on": true, "pane_mode": true, "scroll_position": true,
	"session_windows": true, "session_attached": true, "session_created": true,
	"window_width": true, "window_height": true, "window_active": true, "window_panes": true,
	"window_layout": true, "window_zoomed_flag": true, "buffer_size": true, "buffer_created": true,
	"pane_last_prompt_time": true, "pane_command_running": true, "pane_command_status": true,
}

// split returns f's plain variables and the others, each in f's order.
func (f format) split() (plain, free []string) {
	for _, name := range f {
		if plainVariables[name] {
			plain = append(plain, name)
		} else {
			free = append(free, name)
		}
	}
	return plain, free
}

// layout returns the -F argument for f and the separators used in it: the
// plain variables one space apart, then each other variable after a field
// separator. The token is 48 random bits, new for every command: no pane
// can guess it.
func (f format) layout() (spec, fieldSep, rowSep string) {
	token := "_" + Nonce(6)
	fieldSep, rowSep = token+"F", token+"R\n"
	plain, free := f.split()
	var sb strings.Builder
	for i, name := range plain {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString("#{" + name + "}")
	}
	for i, name := range free {
		if i > 0 || len(plain) > 0 {
			sb.WriteString(fieldSep)
		}
		sb.WriteString("#{" + name + "}")
	}
	sb.WriteString(strings.TrimSuffix(rowSep, "\n"))
	return sb.String(), fieldSep, rowSep
}

// parse splits tmux output printed with layout's spec into rows of fields,
// one map per row keyed by variable name.
func (f format) parse(out, fieldSep, rowSep string) ([]map[string]string, error) {
	plain, free := f.split()
	fields := len(free)
	if len(plain) > 0 {
		fields++
	}
	var rows []map[string]string
	for out != "" {
		row, rest, ok := strings.Cut(out, rowSep)
		if !ok {
			return nil, fmt.Errorf("parsing tmux output: unterminated row %q", truncate(out, 80))
		}
		out = rest
		values := strings.Split(row, fieldSep)
		if len(values) != fields {
			return nil, fmt.Errorf("parsing tmux output: %d fields, want %d", len(values), fields)
		}
		m := make(map[string]string, len(f))
		if len(plain) > 0 {
			words := strings.Split(values[0], " ")
			if len(words) != len(plain) {
				return nil, fmt.Errorf("parsing tmux output: %d plain values in %q, want %d", len(words), truncate(values[0], 80), len(plain))
			}
			for i, name := range plain {
				m[name] = words[i]
			}
			values = values[1:]
		}
		for i, name := range free {
			m[name] = values[i]
		}
		rows = append(rows, m)
	}
	return rows, nil
}

// parsePrinted parses rows of f that tmux printed to a command client
// (list-panes -F, display-message -p, -P -F): tmux 3.4 escapes "$" in
// those (see unprinted), so a title or path holding "$HOME" would read
// back as "\$HOME". The whole output is unescaped before it is split: a
// value ending in "$" is escaped because of the separator after it.
func (c *Client) parsePrinted(ctx context.Context, f format, out, fieldSep, rowSep string) ([]map[string]string, error) {
	return f.parse(c.unprinted(ctx, out), fieldSep, rowSep)
}

// list runs a tmux command that prints f per row. The -F flag goes right
// after the command name, before any "--" and trailing arguments.
func (c *Client) list(ctx context.Context, f format, argv ...string) ([]map[string]string, error) {
	spec, fieldSep, rowSep := f.layout()
	full := append([]string{argv[0], "-F", spec}, argv[1:]...)
	out, err := c.command(ctx, full...)
	if err != nil {
		return nil, err
	}
	return c.parsePrinted(ctx, f, out, fieldSep, rowSep)
}

// truncate cuts s to at most n bytes, on a character boundary, marking the
// cut with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
