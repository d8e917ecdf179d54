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
type format []string

// layout returns the -F argument for f and the separators used in it.
// The token is 48 random bits, new for every command: no pane can guess
// it, and tmux copies a format's literal text a byte at a time, so the
// 33 separators of a pane's detail cost it 30 µs at 96 bits.
func (f format) layout() (spec, fieldSep, rowSep string) {
	token := "_" + Nonce(6)
	fieldSep, rowSep = token+"F", token+"R\n"
	var sb strings.Builder
	for i, name := range f {
		if i > 0 {
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
	var rows []map[string]string
	for out != "" {
		row, rest, ok := strings.Cut(out, rowSep)
		if !ok {
			return nil, fmt.Errorf("parsing tmux output: unterminated row %q", truncate(out, 80))
		}
		out = rest
		fields := strings.Split(row, fieldSep)
		if len(fields) != len(f) {
			return nil, fmt.Errorf("parsing tmux output: %d fields, want %d", len(fields), len(f))
		}
		m := make(map[string]string, len(f))
		for i, name := range f {
			m[name] = fields[i]
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
