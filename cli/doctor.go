package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// A checker prints one line per check: "ok", "warn" (usable, but worth
// knowing) or "FAIL" with the fix. Any FAIL makes doctor exit 1.
type checker struct {
	env    Env
	failed bool
}

func (k *checker) line(status, what, detail string) {
	fmt.Fprintf(k.env.Stdout, "%-4s  %-9s %s\n", status, what, detail)
}
func (k *checker) ok(what, format string, a ...any) { k.line("ok", what, fmt.Sprintf(format, a...)) }
func (k *checker) warn(what, format string, a ...any) {
	k.line("warn", what, fmt.Sprintf(format, a...))
}
func (k *checker) fail(what, format string, a ...any) {
	k.failed = true
	k.line("FAIL", what, fmt.Sprintf(format, a...))
}

// runDoctor is `tmux-mcp doctor`: is this setup usable, and if not, what
// to do. It only reads: it starts no tmux server and sweeps nothing.
func runDoctor(ctx context.Context, _ *Command, env Env) int {
	if len(env.Args) > 0 {
		fmt.Fprintln(env.Stderr, "tmux-mcp doctor: takes no words, only the server's flags")
		return exitUsage
	}
	k := &checker{env: env}
	client := tmuxctl.New(env.TmuxConfig())
	k.ok("tools", "--safety=%s %s: %d tools offered", env.TierName(), env.Offer(), len(offered(env.Config)))

	path, err := exec.LookPath(binaryName(env.TmuxConfig()))
	if err != nil {
		k.fail("tmux", "%s not found: install tmux 3.2a or later (apt install tmux, brew install tmux) or give its path with --tmux", binaryName(env.TmuxConfig()))
		return k.exit()
	}
	v, err := client.Version(ctx)
	switch {
	case err != nil:
		k.fail("tmux", "%s: %v; give a working tmux with --tmux", path, err)
		return k.exit()
	case !v.AtLeast(3, 2):
		k.fail("tmux", "%s is tmux %s, older than 3.2a, the oldest supported: install a newer tmux", path, v)
	default:
		k.ok("tmux", "%s, tmux %s", path, v)
	}

	sock := client.SocketPath()
	fi, err := os.Stat(sock)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		k.warn("socket", "%s (%s) does not exist: no tmux server runs there yet; create_session starts one, or run `%s`",
			sock, client.Describe(), tmuxCommand(env.TmuxConfig(), "new -d"))
		k.leftovers(ctx, client)
		return k.exit()
	case err != nil:
		k.fail("socket", "%s: %v; check the permissions of its directory", sock, err)
		return k.exit()
	case fi.Mode()&fs.ModeSocket == 0:
		k.fail("socket", "%s is not a socket: point -S at a tmux socket or remove that file", sock)
		return k.exit()
	}
	k.ok("socket", "%s (%s)", sock, client.Describe())

	info, err := client.ServerInfo(ctx)
	if err != nil {
		k.fail("server", "no tmux server answers on %s (%v): remove the stale socket or start tmux there with `%s`",
			sock, err, tmuxCommand(env.TmuxConfig(), "new -d"))
		k.leftovers(ctx, client)
		return k.exit()
	}
	k.ok("server", "tmux %s, pid %d: %d sessions, %d windows, %d panes", info.Version, info.PID, info.Sessions, info.Windows, info.Panes)
	if client.Transport() == tmuxctl.TransportNative {
		k.ok("client", "native: tmux's own client protocol over the socket, no process per command")
	} else {
		k.ok("client", "exec: a %s child per command (--tmux-client=exec, or the server spoke a protocol the native client does not)", binaryName(env.TmuxConfig()))
	}
	if sv, err := tmuxctl.ParseVersion(info.Version); err == nil && !sv.AtLeast(3, 2) {
		k.fail("server", "the running server is tmux %s, older than 3.2a: restart it with a newer tmux", info.Version)
	}
	// Leftovers first: the server that answers get_server_info sweeps
	// them at start, and doctor only looks.
	if k.leftovers(ctx, client) {
		k.features(ctx, env, client)
	} else {
		k.warn("features", "not asked: the server that answers get_server_info would remove the leftovers first")
	}
	return k.exit()
}

// features asks get_server_info, through the server, which version-gated
// behaviours this tmux has, as an agent would see them.
func (k *checker) features(ctx context.Context, env Env, client *tmuxctl.Client) {
	s, err := connect(ctx, env.Config.WithTool("get_server_info"))
	if err != nil {
		k.fail("features", "building the server: %v", err)
		return
	}
	defer s.Close()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "get_server_info", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		k.warn("features", "get_server_info: %v%s", err, errorText(res))
		return
	}
	data, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Features []string `json:"features"`
	}
	json.Unmarshal(data, &out)
	if len(out.Features) == 0 {
		k.ok("features", "none of the version-gated ones")
		return
	}
	k.ok("features", "%s", strings.Join(out.Features, ", "))
}

// leftovers reports what instances that no longer run left behind. They
// do no harm: the next tmux-mcp to watch a pane on this server sweeps them.
// It reports whether there were none.
func (k *checker) leftovers(ctx context.Context, client *tmuxctl.Client) (none bool) {
	l := live.FindLeftovers(ctx, client)
	if l.Empty() {
		k.ok("leftovers", "none from instances that no longer run")
		return true
	}
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(len(l.Pipes), "pane pipes")
	add(len(l.Holds), "remain-on-exit holds")
	add(l.Hooks, "pane-died hooks")
	add(len(l.Buffers), "paste buffers")
	add(len(l.Dirs), "private directories")
	k.warn("leftovers", "%s left by instances that no longer run; the next tmux-mcp that watches a pane here removes them", strings.Join(parts, ", "))
	return false
}

func (k *checker) exit() int {
	if k.failed {
		fmt.Fprintln(k.env.Stdout, "\nnot usable yet: fix the FAIL lines above")
		return exitError
	}
	fmt.Fprintln(k.env.Stdout, "\nusable")
	return exitOK
}

func binaryName(c tmuxctl.Config) string {
	if c.Binary == "" {
		return "tmux"
	}
	return c.Binary
}

// tmuxCommand is a tmux command line on the configured socket, for the
// user to paste.
func tmuxCommand(c tmuxctl.Config, rest string) string {
	switch {
	case c.SocketPath != "":
		return "tmux -S " + tmuxctl.ShellQuote(c.SocketPath) + " " + rest
	case c.SocketName != "":
		return "tmux -L " + tmuxctl.ShellQuote(c.SocketName) + " " + rest
	}
	return "tmux " + rest
}

func errorText(r *mcp.CallToolResult) string {
	if r == nil {
		return ""
	}
	return text(r)
}
