package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
	// TmuxClient is how commands reach the server: TransportNative
	// ("native", the default when empty) speaks tmux's client protocol
	// over the socket with no process, falling back to the binary at the
	// first surprise; TransportExec ("exec") always runs the binary.
	TmuxClient string
	// Observe, when set, is called with every tmux command this client
	// sends, once per command of a command list (tests count them).
	Observe func(argv []string)
	// ObserveBackground, when set, is called instead of Observe with the
	// commands sent under a context from [Background]: work done ahead
	// of any call (a spare pane), which tests count apart from calls.
	ObserveBackground func(argv []string)
}

// A Client runs tmux commands against one tmux server. It holds no
// connection: each command is one short-lived command client, spoken
// natively over the server's socket or, as the fallback, a tmux child. It
// is safe for concurrent use.
type Client struct {
	cfg Config
	// killGrace is how long a cancelled tmux child gets after SIGTERM before
	// SIGKILL; tmux exits at once on SIGTERM, so this rarely matters.
	killGrace time.Duration
	// commandTimeout bounds every tmux command but wait-for: a tmux server
	// that stopped answering (SIGSTOP, a wedged hook) must not hang a call.
	commandTimeout time.Duration

	tr *transport // native or exec, and the one fallback notice
	// behind counts the commands sent without waiting for their answer
	// ([Client.KillPaneBehind]): every other command waits for them.
	behind *barrier

	versionOnce sync.Once // version is asked for once, when first needed
	version     Version
	versionErr  error
}

// New returns a Client for cfg.
func New(cfg Config) *Client {
	if cfg.Binary == "" {
		cfg.Binary = "tmux"
	}
	return &Client{cfg: cfg, killGrace: 500 * time.Millisecond, commandTimeout: CommandTimeout, tr: newTransport(cfg), behind: &barrier{}}
}

func newTransport(cfg Config) *transport {
	tr := &transport{stderr: os.Stderr}
	tr.exec.Store(cfg.TmuxClient == TransportExec)
	return tr
}

// CommandTimeout is how long any one tmux command may take before it is
// killed and reported as unanswered.
const CommandTimeout = 10 * time.Second

// WithSocketName returns a Client for the same binary on the server named
// name (tmux -L), for calls that choose their own socket.
func (c *Client) WithSocketName(name string) *Client {
	cfg := c.cfg
	cfg.SocketName, cfg.SocketPath = name, ""
	return &Client{cfg: cfg, killGrace: c.killGrace, commandTimeout: c.commandTimeout, tr: newTransport(cfg), behind: &barrier{}}
}

// SocketPath is the path of the socket c uses, worked out the way tmux does
// (-S path; else -L name or "default" under $TMUX_TMPDIR/tmux-UID; with
// neither flag inside tmux, the socket named in $TMUX).
func (c *Client) SocketPath() string {
	path, given := c.socket()
	if given {
		return absPath(path)
	}
	return path
}

// socket is the socket's path before [SocketPath] makes it absolute and
// resolves its symbolic links; given says whether it came from the user
// (-S, or $TMUX) rather than from tmux's own directory.
func (c *Client) socket() (path string, given bool) {
	switch {
	case c.cfg.SocketPath != "":
		return c.cfg.SocketPath, true
	case c.cfg.SocketName != "":
		return filepath.Join(socketDir(), c.cfg.SocketName), false
	}
	if path, _, ok := strings.Cut(os.Getenv("TMUX"), ","); ok && path != "" {
		return path, true
	}
	return filepath.Join(socketDir(), "default"), false
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

// command runs one tmux command as its own tmux client and returns its
// standard output. It is unexported on purpose: callers ask for
// operations, not argv.
//
// Every command is a short-lived client that is never attached to a
// session: tmux before 3.7 crashes when a control client that is still
// starting up is sent a notification, and an attached client would resize
// windows and show in `tmux ls`; a plain command client is neither.
func (c *Client) command(ctx context.Context, argv ...string) (string, error) {
	return c.commands(ctx, argv)
}

// commands runs several tmux commands in one client, in order, as one
// unit: tmux runs a client's command list without interleaving another
// client's commands. It returns their joined standard output.
func (c *Client) commands(ctx context.Context, cmds ...[]string) (string, error) {
	return c.commandsWithInput(ctx, nil, cmds...)
}

// commandsWithInput is commands with stdin as the client's standard input
// (for "-" file arguments such as load-buffer's); nil gives none. Every
// command tmuxctl sends comes through here or through [Client.unbounded].
func (c *Client) commandsWithInput(ctx context.Context, stdin []byte, cmds ...[]string) (string, error) {
	c.awaitBehind(ctx)
	c.observe(ctx, cmds...)
	full, err := commandLine(cmds)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.commandTimeout, errNoAnswer)
	defer cancel()
	r, err := c.run(ctx, full, stdin)
	if ctx.Err() != nil {
		if context.Cause(ctx) == errNoAnswer {
			return "", fmt.Errorf("%s: tmux did not answer within %v (is the tmux server stopped or overloaded?)", cmds[0][0], c.commandTimeout)
		}
		return "", fmt.Errorf("%s: %w", cmds[0][0], ctx.Err())
	}
	if err != nil {
		return "", err
	}
	if r.status != 0 {
		return "", refusal(cmds[0], r)
	}
	return string(r.stdout), nil
}

// unbounded runs one command with no deadline but ctx's: for wait-for,
// which waits as long as its caller does. Cancelling ctx ends the client
// (closes its connection, or kills the tmux child).
func (c *Client) unbounded(ctx context.Context, argv []string) (reply, error) {
	c.awaitBehind(ctx)
	c.observe(ctx, argv)
	full, err := commandLine([][]string{argv})
	if err != nil {
		return reply{}, err
	}
	return c.run(ctx, full, nil)
}

func (c *Client) observe(ctx context.Context, cmds ...[]string) {
	f := c.cfg.Observe
	if InBackground(ctx) {
		f = c.cfg.ObserveBackground
	}
	for _, argv := range cmds {
		if f != nil {
			f(argv)
		}
	}
}

type backgroundKey struct{}

// Background marks ctx as work no call waits for: its commands go to
// [Config.ObserveBackground].
func Background(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

// InBackground reports whether ctx came from [Background].
func InBackground(ctx context.Context) bool { return ctx.Value(backgroundKey{}) != nil }

// commandLine joins cmds into one tmux command line, escaped.
func commandLine(cmds [][]string) ([]string, error) {
	var full []string
	for i, argv := range cmds {
		for _, a := range argv {
			if strings.IndexByte(a, 0) >= 0 {
				return nil, fmt.Errorf("%s: an argument contains a NUL byte, which tmux cannot take", argv[0])
			}
		}
		if i > 0 {
			full = append(full, ";")
		}
		full = append(full, escapeArgs(argv)...)
	}
	return full, nil
}

// refusal is the error for a client that exited non-zero: what it printed
// on stderr (else stdout), classified.
func refusal(argv []string, r reply) error {
	msg := strings.TrimSpace(string(r.stderr))
	if msg == "" {
		msg = strings.TrimSpace(string(r.stdout))
	}
	if msg == "" {
		msg = "exit status " + strconv.Itoa(r.status)
	}
	return classify(&CommandError{Argv: argv, Message: msg})
}

var errNoAnswer = errors.New("tmux did not answer")

// sourced runs tmux commands (one command list) written into a private
// file (0600, in a private directory named like the live layer's, so that
// the next start removes it should this process die first) through
// source-file, so that none of their arguments appears in any process's
// argv.
func (c *Client) sourced(ctx context.Context, cmds ...[]string) (string, error) {
	argv := cmds[0]
	for _, cmd := range cmds {
		for _, a := range cmd {
			if strings.IndexByte(a, 0) >= 0 {
				return "", fmt.Errorf("%s: an argument contains a NUL byte, which tmux cannot take", cmd[0])
			}
		}
	}
	dir, err := os.MkdirTemp("", "tmux-mcp-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "command")
	if err := os.WriteFile(file, []byte(quoteCommands(cmds...)+"\n"), 0o600); err != nil {
		return "", err
	}
	// start-server first: new-session must work with no server running,
	// and source-file alone needs one.
	out, err := c.commands(ctx, []string{"start-server"}, []string{"source-file", file})
	var ce *CommandError
	if errors.As(err, &ce) {
		// Say what was run, not the file it was read from.
		ce.Argv = argv
	}
	return out, err
}

// cmd builds the tmux child for argv (already escaped): socket flags, no
// shell, SIGTERM then SIGKILL when ctx ends, and where the OS allows it, a
// child that dies with this process.
func (c *Client) cmd(ctx context.Context, argv []string) *exec.Cmd {
	full := append(c.globalArgs(), argv...)
	cmd := exec.CommandContext(ctx, c.cfg.Binary, full...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = c.killGrace
	cmd.SysProcAttr = dieWithParent()
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
