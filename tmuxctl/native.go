package tmuxctl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
)

// The two ways a [Client] can send a command, as Config.TmuxClient and
// [Client.Transport] name them.
const (
	// TransportNative speaks tmux's client protocol over the server's
	// socket, with no process (package imsg).
	TransportNative = "native"
	// TransportExec runs the tmux binary for each command.
	TransportExec = "exec"
)

// A transport remembers whether a Client still speaks tmux's protocol
// itself. It starts native (unless configured otherwise) and turns to exec
// for good at the first surprise, saying so once.
type transport struct {
	exec   atomic.Bool
	once   sync.Once
	stderr io.Writer // where the one fallback line goes
}

// Transport says how c sends commands now: [TransportNative], or
// [TransportExec] when configured so or after the native client met a
// server it did not understand.
func (c *Client) Transport() string {
	if c.tr.exec.Load() {
		return TransportExec
	}
	return TransportNative
}

// fallBack turns c to the tmux binary for every later command.
func (c *Client) fallBack(why error) {
	c.tr.exec.Store(true)
	c.tr.once.Do(func() {
		fmt.Fprintf(c.tr.stderr, "tmux-mcp: tmux on %s: %v; using the %s binary for every command from now on\n", c.Describe(), why, c.cfg.Binary)
	})
}

// A reply is what one tmux client printed and how it ended.
type reply struct {
	stdout, stderr []byte
	status         int
}

// runNative sends argv (escaped, one command line) over tmux's protocol.
// It returns *imsg.NoServerError when no server listens, and
// *imsg.SurpriseError when the server did not follow the protocol.
func (c *Client) runNative(ctx context.Context, argv []string, stdin []byte) (reply, error) {
	// The socket is dialled as given: connecting resolves a relative path
	// and symbolic links as SocketPath would, without its system calls
	// (a stat per path element) on every command.
	socket, _ := c.socket()
	res, err := imsg.Run(ctx, imsg.Request{
		Socket:  socket,
		Argv:    argv,
		Stdin:   stdin,
		Environ: environFor(argv),
		Cwd:     clientCwd(),
		Term:    os.Getenv("TERM"),
		Sent:    sentHook(ctx),
	})
	var none *imsg.NoServerError
	if errors.As(err, &none) {
		none.Path = c.SocketPath() // the binary names the resolved path
	}
	return reply{stdout: res.Stdout, stderr: res.Stderr, status: res.Status}, err
}

// runExec runs argv (escaped) in a tmux child. An error is one the child
// could not report itself: it did not start, or ctx ended.
func (c *Client) runExec(ctx context.Context, argv []string, stdin []byte) (reply, error) {
	cmd := c.cmd(ctx, argv)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return reply{}, ctx.Err()
	}
	r := reply{stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.status = exit.ExitCode()
		if r.status < 0 {
			return reply{}, fmt.Errorf("running %s %s: %w", c.cfg.Binary, argv[0], err)
		}
		return r, nil
	}
	if err != nil {
		return reply{}, fmt.Errorf("running %s %s: %w", c.cfg.Binary, argv[0], err)
	}
	return r, nil
}

// run sends one escaped command line the way c is set to: natively while
// the server follows the protocol, else with the tmux binary. With no
// server on the socket it runs the binary, which starts one for the
// commands that start servers (new-session, start-server) and otherwise
// says "no server running" in its own words.
func (c *Client) run(ctx context.Context, argv []string, stdin []byte) (reply, error) {
	if !c.tr.exec.Load() {
		r, err := c.runNative(ctx, argv, stdin)
		var none *imsg.NoServerError
		var surprise *imsg.SurpriseError
		switch {
		case err == nil:
			return r, nil
		case errors.As(err, &none):
			// The binary decides: start a server, or say there is none.
		case errors.As(err, &surprise):
			c.fallBack(err)
			if surprise.Sent {
				// The command may have run: running it again could do it
				// twice, so this one is reported, and later ones use the binary.
				return reply{}, fmt.Errorf("%s: %w (the command may or may not have run; later commands use the %s binary)", argv[0], err, c.cfg.Binary)
			}
		default:
			return reply{}, err
		}
	}
	return c.runExec(ctx, argv, stdin)
}

// readers are the tmux commands tmuxctl sends that consult nothing of the
// client's environment but TMUX and TMUX_PANE (which cmd-find.c uses to
// find the client's own pane). Only new-session (update-environment) and
// the commands that spawn (PATH: spawn.c) read the rest, and attaching,
// which no command here does.
var readers = map[string]bool{
	"list-sessions": true, "list-windows": true, "list-panes": true, "list-buffers": true,
	"list-clients": true, "display-message": true, "capture-pane": true, "show-options": true,
	"show-window-options": true, "show-environment": true, "show-hooks": true,
	"show-buffer": true, "has-session": true, "wait-for": true,
}

// clientCwd is the working directory a native client reports, as the
// tmux binary reports its own: read once, since the server never changes
// directory (os.Getwd costs two stats, on every command).
var clientCwd = sync.OnceValue(func() string {
	cwd, err := os.Getwd()
	if err != nil {
		if cwd, err = os.UserHomeDir(); err != nil {
			cwd = "/"
		}
	}
	return cwd
})

// environFor is the environment a native client running the command line
// argv sends: the process's, or for a line of readers only TMUX and
// TMUX_PANE (imsg.OnlyTmuxVariables), since tmux copies each variable a
// client sends into a tree: about 12 µs of a read with 35 variables, and
// more in the larger environments MCP clients pass.
func environFor(argv []string) []string {
	env := os.Environ()
	first := true
	for _, a := range argv {
		if first && !readers[a] {
			return env
		}
		first = a == ";"
	}
	return imsg.OnlyTmuxVariables(env)
}
