package tmuxctl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Config selects the tmux binary and server a [Client] talks to.
// With neither SocketName nor SocketPath set, the client uses the server a
// plain `tmux` command would use ($TMUX inside tmux, else the default socket).
type Config struct {
	Binary     string // tmux executable; "tmux" when empty
	SocketName string // tmux -L
	SocketPath string // tmux -S; wins over SocketName
}

// A Client runs tmux commands against one tmux server. It holds no
// connection: each command is one short-lived tmux child. It is safe for
// concurrent use.
type Client struct {
	cfg Config
	// killGrace is how long a cancelled tmux child gets after SIGTERM before
	// SIGKILL; tmux exits at once on SIGTERM, so this rarely matters.
	killGrace time.Duration
	// control, when set, is a live control-mode connection commands go
	// over instead of a new tmux process each (a fraction of a millisecond
	// instead of several). The hub sets it.
	control atomic.Pointer[controlConn]
}

// New returns a Client for cfg.
func New(cfg Config) *Client {
	if cfg.Binary == "" {
		cfg.Binary = "tmux"
	}
	return &Client{cfg: cfg, killGrace: 500 * time.Millisecond}
}

// useControl routes commands through conn while it lives.
func (c *Client) useControl(conn *controlConn) { c.control.Store(conn) }

// dropControl stops routing commands through conn.
func (c *Client) dropControl(conn *controlConn) { c.control.CompareAndSwap(conn, nil) }

// WithSocketName returns a Client for the same binary on the server named
// name (tmux -L), for calls that choose their own socket.
func (c *Client) WithSocketName(name string) *Client {
	cfg := c.cfg
	cfg.SocketName, cfg.SocketPath = name, ""
	return &Client{cfg: cfg, killGrace: c.killGrace} // its own server: no shared connection
}

// SocketPath is the path of the socket c uses, worked out the way tmux does
// (-S path; else -L name or "default" under $TMUX_TMPDIR/tmux-UID; with
// neither flag inside tmux, the socket named in $TMUX).
func (c *Client) SocketPath() string {
	switch {
	case c.cfg.SocketPath != "":
		return absPath(c.cfg.SocketPath)
	case c.cfg.SocketName != "":
		return filepath.Join(socketDir(), c.cfg.SocketName)
	}
	if path, _, ok := strings.Cut(os.Getenv("TMUX"), ","); ok && path != "" {
		return absPath(path)
	}
	return filepath.Join(socketDir(), "default")
}

// Describe names the socket for people: "-S /path", "-L name" or "default".
func (c *Client) Describe() string {
	switch {
	case c.cfg.SocketPath != "":
		return "-S " + c.cfg.SocketPath
	case c.cfg.SocketName != "":
		return "-L " + c.cfg.SocketName
	}
	return "default (" + c.SocketPath() + ")"
}

func socketDir() string {
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, "tmux-"+strconv.Itoa(os.Getuid()))
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p
}

// globalArgs are the flags before every command: the socket, and -u so
// tmux sends UTF-8 as it is even when the locale does not say UTF-8 (it
// would otherwise print "_" for every non-ASCII character).
func (c *Client) globalArgs() []string {
	switch {
	case c.cfg.SocketPath != "":
		return []string{"-u", "-S", c.cfg.SocketPath}
	case c.cfg.SocketName != "":
		return []string{"-u", "-L", c.cfg.SocketName}
	}
	return []string{"-u"}
}

// command runs one tmux command and returns its standard output. It is
// unexported on purpose: callers ask for operations, not argv.
//
// Every argument is passed through [escapeArg], so a caller's string that
// ends in ";" is not taken as a command separator. The tmux child is killed
// if ctx ends first.
func (c *Client) command(ctx context.Context, argv ...string) (string, error) {
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return "", fmt.Errorf("%s: an argument contains a NUL byte, which tmux cannot take", argv[0])
		}
	}
	if conn := c.control.Load(); conn != nil && !conn.isDone() && !endsClients[argv[0]] {
		reply, err := conn.do(ctx, argv...)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return "", fmt.Errorf("%s: %w", argv[0], ctxErr)
		}
		if err == nil {
			text := strings.Join(reply.Lines, "\n")
			if reply.Failed {
				return "", classify(&CommandError{Argv: argv, Message: strings.TrimSpace(text)})
			}
			if len(reply.Lines) > 0 {
				text += "\n"
			}
			return text, nil
		}
		if !errors.Is(err, errNotSent) {
			return "", err // it may have run: never run it twice
		}
		// The connection had gone before the command was sent: run it the
		// slow way.
	}
	return c.exec(ctx, argv...)
}

// endsClients are commands that can end the session a control client is
// attached to, and with it the client, before its reply is written; they
// run as their own process, so their outcome is always known.
var endsClients = map[string]bool{"kill-session": true, "kill-window": true, "kill-pane": true, "kill-server": true}

// exec runs one tmux command as its own process.
func (c *Client) exec(ctx context.Context, argv ...string) (string, error) {
	cmd := c.cmd(ctx, argv)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return "", fmt.Errorf("%s: %w", argv[0], ctxErr)
	}
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", fmt.Errorf("running %s %s: %w", c.cfg.Binary, argv[0], err)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		if msg == "" {
			msg = exit.String()
		}
		return "", classify(&CommandError{Argv: argv, Message: msg})
	}
	return stdout.String(), nil
}

// cmd builds the tmux child for argv: socket flags, escaped arguments, no
// shell, SIGTERM then SIGKILL when ctx ends.
func (c *Client) cmd(ctx context.Context, argv []string) *exec.Cmd {
	full := append(c.globalArgs(), escapeArgs(argv)...)
	cmd := exec.CommandContext(ctx, c.cfg.Binary, full...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = c.killGrace
	return cmd
}

// escapeArgs protects arguments from tmux's command-line parser, which
// treats a trailing ";" as the end of a command (tmux 3.x
// cmd_parse_from_arguments). A trailing "\;" is read back as ";".
func escapeArgs(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if strings.HasSuffix(a, ";") {
			a = a[:len(a)-1] + `\;`
		}
		out[i] = a
	}
	return out
}

// literalFormat escapes s for an argument that tmux expands as a format
// (session and window names, start directories), so "#{…}" and "#(…)" stay
// text and never run.
func literalFormat(s string) string {
	return strings.ReplaceAll(s, "#", "##")
}
