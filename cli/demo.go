package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/internal/proc"
)

// runDemo is `tmux-mcp demo`: a private tmux on its own socket, a short
// scripted tour through the real tools, and then nothing left behind.
// It never touches the configured (or the user's) tmux server.
func runDemo(ctx context.Context, _ *Command, env Env) int {
	if len(env.Args) > 0 {
		fmt.Fprintln(env.Stderr, "tmux-mcp demo: takes no words, only the server's flags")
		return exitUsage
	}
	priv, err := startPrivateTmux(ctx, binaryName(env.TmuxConfig()))
	if err != nil {
		fmt.Fprintf(env.Stderr, "tmux-mcp demo: %v\n", err)
		return exitError
	}
	defer priv.remove()
	fmt.Fprintf(env.Stdout, "A private tmux on %s (no config file), removed at the end.\n", priv.socket)

	cfg := env.Config
	cfg.SocketName, cfg.SocketPath = "", priv.socket
	s, err := connect(ctx, cfg)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tmux-mcp demo: %v\n", err)
		return exitError
	}
	defer s.Close()
	t := &tour{ctx: ctx, s: s, env: env}
	if err := t.run(); err != nil {
		fmt.Fprintf(env.Stderr, "tmux-mcp demo: %v\n", err)
		return exitError
	}
	fmt.Fprintln(env.Stdout, "\nThat was the real server: `tmux-mcp tools` lists every tool, `tmux-mcp call TOOL '{…}'` runs one.")
	return exitOK
}

// A tour prints each call and its result, as an agent would read it.
type tour struct {
	ctx  context.Context
	s    *session
	env  Env
	step int
}

func (t *tour) run() error {
	var panes struct {
		Panes []struct {
			PaneID string `json:"paneId"`
		} `json:"panes"`
	}
	if err := t.call("Which panes are there? The new server has one, running a shell.",
		"list_panes", map[string]any{}, &panes); err != nil {
		return err
	}
	if len(panes.Panes) == 0 {
		return fmt.Errorf("list_panes found no pane")
	}
	shell := panes.Panes[0].PaneID

	var started struct {
		PaneID string `json:"paneId"`
		Cursor string `json:"cursor"`
	}
	build := "echo building; sleep 0.4; echo step 1 of 2; sleep 0.4; echo step 2 of 2; sleep 0.4; echo build ok"
	if err := t.call("Start a program in a window of its own; it prints for about a second.",
		"start_program", map[string]any{"argv": []string{"sh", "-c", build}, "sessionName": "demo", "windowName": "build"}, &started); err != nil {
		return err
	}
	if err := t.call("Follow its output from the cursor start_program gave: what is new, waiting for some.",
		"capture_since", map[string]any{"paneId": started.PaneID, "cursor": started.Cursor, "waitMs": 3000}, nil); err != nil {
		return err
	}
	if err := t.call("Wait, without polling, until it prints \"build ok\".",
		"wait_for_text", map[string]any{"paneId": started.PaneID, "patterns": []string{"build ok"}, "timeoutMs": 10000}, nil); err != nil {
		return err
	}
	if err := t.call("Wait for it to exit, and read its exit status.",
		"wait_for_exit", map[string]any{"paneId": started.PaneID, "timeoutMs": 10000}, nil); err != nil {
		return err
	}
	return t.call("Run a command line in the shell: its output and its exit status, here 1 (the test fails).",
		"run_shell_command", map[string]any{"paneId": shell, "command": `echo "hello from $(uname -s)"; test -e /no/such/file`, "timeoutMs": 10000}, nil)
}

// call runs one tool, prints it and its result's text, and decodes the
// structured result into out (when not nil).
func (t *tour) call(why, name string, args map[string]any, out any) error {
	t.step++
	argText, _ := json.Marshal(args)
	fmt.Fprintf(t.env.Stdout, "\n%d. %s\n> %s %s\n", t.step, why, name, argText)
	start := time.Now()
	res, err := t.s.CallTool(t.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, line := range strings.Split(strings.TrimRight(text(res), "\n"), "\n") {
		fmt.Fprintf(t.env.Stdout, "  %s\n", line)
	}
	fmt.Fprintf(t.env.Stdout, "  (%s)\n", time.Since(start).Round(time.Millisecond))
	if res.IsError {
		return fmt.Errorf("%s answered an error: %s", name, text(res))
	}
	if out != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return err
		}
		return json.Unmarshal(data, out)
	}
	return nil
}

// A privateTmux is a tmux server on a socket in a directory of its own,
// started with no configuration file. Starting and killing a whole server
// is the demo's job, not a tool's, so it runs tmux itself, as the tests'
// helper does.
type privateTmux struct {
	binary, dir, socket string
}

func startPrivateTmux(ctx context.Context, binary string) (*privateTmux, error) {
	if _, err := exec.LookPath(binary); err != nil {
		return nil, fmt.Errorf("%s not found: install tmux 3.2a or later, or give its path with --tmux", binary)
	}
	dir, err := os.MkdirTemp("", "tmux-mcp-demo-") // short: socket paths are limited to ~100 bytes
	if err != nil {
		return nil, err
	}
	p := &privateTmux{binary: binary, dir: dir, socket: filepath.Join(dir, "s")}
	cmd := exec.CommandContext(ctx, binary, "-u", "-S", p.socket, "-f", "/dev/null",
		"new-session", "-d", "-s", "demo", "-x", "100", "-y", "30", "/bin/sh")
	cmd.Env = append(os.Environ(), "ENV=/dev/null") // an interactive sh reads $ENV: keep the user's out
	if out, err := cmd.CombinedOutput(); err != nil {
		p.remove()
		return nil, fmt.Errorf("starting a private tmux: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return p, nil
}

// remove kills the private server, waits (at most serverExitBound) until
// its process has gone — kill-server answers before the server exits —
// and removes its directory.
func (p *privateTmux) remove() {
	pid := 0
	if out, err := exec.Command(p.binary, "-S", p.socket, "display-message", "-p", "#{pid}").Output(); err == nil {
		pid, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	}
	exec.Command(p.binary, "-S", p.socket, "kill-server").Run()
	for deadline := time.Now().Add(serverExitBound); pid > 0 && time.Now().Before(deadline); {
		if !proc.Alive(pid) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	os.RemoveAll(p.dir)
}

// serverExitBound is how long remove waits for the killed server to exit.
const serverExitBound = 3 * time.Second
