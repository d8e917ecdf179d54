package tmuxctl

import (
	"context"
	"regexp"
	"sync"
)

// printedDollar is a "$" that tmux 3.4 escaped in what it printed.
var printedDollar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\(\$[A-Za-z_{])`) })

// unprinted undoes what tmux 3.4 (only) does to text it prints to a command
// client: it writes a backslash before every "$" that starts a name or "${",
// so a value "$HOME" reads back as "\$HOME" (the value itself is stored
// unchanged). It inserts nothing else that way and leaves backslashes of
// the value as they are, so removing the backslash before each such "$"
// gives back the value exactly.
func (c *Client) unprinted(ctx context.Context, s string) string {
	if !c.atLeast(ctx, 3, 4) || c.atLeast(ctx, 3, 5) {
		return s
	}
	return undoDollarEscapes(s)
}

// undoDollarEscapes removes the backslash tmux 3.4 put before each "$"
// that starts a name or "${".
func undoDollarEscapes(s string) string { return printedDollar().ReplaceAllString(s, "$1") }
