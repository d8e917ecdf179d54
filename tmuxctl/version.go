package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
)

// A Version is a tmux release, e.g. 3.3a is {3, 3, "a"}.
type Version struct {
	Major, Minor int
	Suffix       string // letter releases and tags such as "a" or "-rc"
}

func (v Version) String() string { return fmt.Sprintf("%d.%d%s", v.Major, v.Minor, v.Suffix) }

// AtLeast reports whether v is major.minor or later, ignoring suffixes.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// ParseVersion reads the output of `tmux -V`, such as "tmux 3.3a" or
// "tmux next-3.5".
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(s)
	f := strings.Fields(s)
	if len(f) != 2 || f[0] != "tmux" {
		return Version{}, fmt.Errorf("parsing tmux version %q: want \"tmux X.Y\"", s)
	}
	num := f[1]
	if i := strings.IndexAny(num, "0123456789"); i > 0 {
		num = num[i:] // prefixes such as next-3.5 or openbsd-7.4
	}
	major, rest, ok := strings.Cut(num, ".")
	if !ok {
		return Version{}, fmt.Errorf("parsing tmux version %q: no minor number", s)
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(rest[:end])
	if err1 != nil || err2 != nil {
		return Version{}, fmt.Errorf("parsing tmux version %q: numbers expected", s)
	}
	return Version{Major: ma, Minor: mi, Suffix: rest[end:]}, nil
}

// Version asks the tmux binary for its version. It needs no server.
func (c *Client) Version(ctx context.Context) (Version, error) {
	out, err := c.cmd(ctx, []string{"-V"}).Output()
	if err != nil {
		return Version{}, fmt.Errorf("running %s -V: %w", c.cfg.Binary, err)
	}
	return ParseVersion(string(out))
}

// atLeast reports whether tmux is version major.minor or later, asking
// once. The gates are about what the server prints and accepts, so the
// running server is asked first: the binary can be another version (an
// upgrade while a server runs, two installs), and the native client talks
// to any server. With no server yet, the binary answers (it will start
// the server). An unknown version counts as recent.
func (c *Client) atLeast(ctx context.Context, major, minor int) bool {
	c.versionOnce.Do(func() {
		if out, err := c.command(ctx, "display-message", "-p", "#{version}"); err == nil {
			if v, err := ParseVersion("tmux " + strings.TrimSpace(out)); err == nil {
				c.version = v
				return
			}
		}
		c.version, c.versionErr = c.Version(ctx)
	})
	return c.versionErr != nil || c.version.AtLeast(major, minor)
}

// ProbeVersion says which tmux c talks to, for the start-up line, starting
// no process when it can: the running server's version, asked natively
// (display-message, about 0.2 ms); with no server, or with the exec client,
// the binary's (tmux -V, which needs no server and starts none).
// fromServer says which one answered (or failed to).
func (c *Client) ProbeVersion(ctx context.Context) (v Version, fromServer bool, err error) {
	if !c.tr.exec.Load() {
		ctx, cancel := context.WithTimeoutCause(ctx, c.commandTimeout, errNoAnswer)
		defer cancel()
		r, err := c.runNative(ctx, []string{"display-message", "-p", "#{version}"}, nil)
		var surprise *imsg.SurpriseError
		switch {
		case err == nil && r.status == 0:
			if v, err := ParseVersion("tmux " + strings.TrimSpace(string(r.stdout))); err == nil {
				return v, true, nil
			}
		case errors.As(err, &surprise):
			c.fallBack(err) // as any command would; this one is harmless to repeat
		case context.Cause(ctx) == errNoAnswer:
			return Version{}, true, fmt.Errorf("asking the tmux server its version: tmux did not answer within %v (is the tmux server stopped or overloaded?)", c.commandTimeout)
		case ctx.Err() != nil:
			return Version{}, true, fmt.Errorf("asking the tmux server its version: %w", ctx.Err())
		}
	}
	v, err = c.Version(ctx)
	return v, false, err
}
