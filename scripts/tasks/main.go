// Tasks scripts six everyday agent tasks against a tmux-mcp binary over
// the go-sdk client and prints, per task and in all, how many calls they
// took and how many characters of text the results carried (the text
// content blocks, which is what a model reads). It measures what a change
// to descriptions or rendering costs an agent; it asserts nothing.
//
// The server runs on a private tmux (a socket in a temporary directory,
// no configuration file), which is killed at the end.
//
// Usage:
//
//	go run ./scripts/tasks [-v] [-tmux tmux] ./tmux-mcp [server flags...]
//
// -v prints every call and its text to standard error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	verbose := flag.Bool("v", false, "print every call and its text to stderr")
	tmuxBin := flag.String("tmux", "tmux", "tmux executable for the private server")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: tasks [-v] [-tmux tmux] ./tmux-mcp [server flags...]")
		os.Exit(2)
	}
	if err := run(*tmuxBin, flag.Args(), *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "tasks:", err)
		os.Exit(1)
	}
}

// An agent counts the calls and result characters of the current task.
type agent struct {
	ctx     context.Context
	cs      *mcp.ClientSession
	verbose bool
	calls   int
	chars   int
}

// call makes one tool call and returns its text and structured content.
func (a *agent) call(name string, args map[string]any) (string, map[string]any, error) {
	res, err := a.cs.CallTool(a.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", name, err)
	}
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = append(text, t.Text)
		}
	}
	all := strings.Join(text, "\n")
	a.calls++
	for _, t := range text {
		a.chars += utf8.RuneCountInString(t)
	}
	if a.verbose {
		b, _ := json.Marshal(args)
		fmt.Fprintf(os.Stderr, "> %s %s\n%s\n\n", name, b, all)
	}
	if res.IsError {
		return all, nil, fmt.Errorf("%s: %s", name, all)
	}
	structured, _ := res.StructuredContent.(map[string]any)
	if structured == nil {
		// The SDK keeps structured content as raw JSON on the client side.
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			json.Unmarshal(raw, &structured)
		}
	}
	return all, structured, nil
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func run(tmuxBin string, server []string, verbose bool) error {
	dir, err := os.MkdirTemp("", "tasks-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) error {
		cmd := exec.Command(tmuxBin, append([]string{"-S", sock, "-f", os.DevNull}, args...)...)
		cmd.Env = cleanEnv(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("tmux %v: %v: %s", args, err, out)
		}
		return nil
	}
	// A session that keeps the server up; the tasks make their own.
	if err := tmux("new-session", "-d", "-s", "keep", "sleep 3600"); err != nil {
		return err
	}
	defer tmux("kill-server")

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.Command(server[0], server[1:]...)
	cmd.Env = append(cleanEnv(dir), "TMUX_MCP_SOCKET_PATH="+sock, "TMUX_MCP_TMUX_BIN="+tmuxBin)
	client := mcp.NewClient(&mcp.Implementation{Name: "tasks", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()

	a := &agent{ctx: ctx, cs: cs, verbose: verbose}
	var shell string // the pane the shell tasks run in
	tasks := []struct {
		name string
		do   func() error
	}{
		{"a long job and its full output", func() error {
			// A bash without startup files: a user's profile can take a
			// minute to run, which would measure the profile, not the server.
			_, r, err := a.call("create_session", map[string]any{"name": "work", "cwd": dir,
				"argv": []string{"bash", "--noprofile", "--norc", "-i"}, "env": map[string]string{"PS1": "$ "}})
			if err != nil {
				return err
			}
			shell = str(r, "paneId")
			_, r, err = a.call("run_shell_command", map[string]any{"paneId": shell,
				"command": "for i in 1 2 3; do echo building part $i; sleep 1; done; echo build ok", "timeoutMs": 20000})
			// As an agent would: a job still running is waited for again.
			for err == nil && str(r, "outcome") == "timed_out" {
				_, r, err = a.call("wait_for_command", map[string]any{"commandId": str(r, "commandId")})
			}
			return want(err, r, "outcome", "completed")
		}},
		{"a failing command and its stderr", func() error {
			_, r, err := a.call("run_shell_command", map[string]any{"paneId": shell, "command": "ls ./no-such-dir"})
			return want(err, r, "outcome", "completed")
		}},
		{"a Python REPL", func() error {
			_, r, err := a.call("split_window", map[string]any{"paneId": shell, "argv": []string{"python3", "-q"}})
			if err != nil {
				return err
			}
			py := str(r, "paneId")
			_, r, err = a.call("wait_for_text", map[string]any{"paneId": py, "patterns": []string{">>> "}, "cursor": str(r, "cursor")})
			if err := want(err, r, "outcome", "matched"); err != nil {
				return err
			}
			_, r, err = a.call("send_keys", map[string]any{"paneId": py, "keys": "print(6 * 7)"})
			if err != nil {
				return err
			}
			_, r, err = a.call("wait_for_text", map[string]any{"paneId": py, "patterns": []string{"42\n>>> "}, "cursor": str(r, "cursor")})
			return want(err, r, "outcome", "matched")
		}},
		{"Ctrl-C of a running command", func() error {
			_, r, err := a.call("run_shell_command", map[string]any{"paneId": shell, "command": "sleep 600", "timeoutMs": 1000})
			if err := want(err, r, "outcome", "timed_out"); err != nil {
				return err
			}
			id := str(r, "commandId")
			if _, _, err := a.call("send_keys", map[string]any{"paneId": shell, "keys": "C-c"}); err != nil {
				return err
			}
			_, r, err = a.call("wait_for_command", map[string]any{"commandId": id})
			return want(err, r, "outcome", "interrupted")
		}},
		{"following a growing log", func() error {
			_, r, err := a.call("run_shell_command", map[string]any{"paneId": shell,
				"command": "(for i in 1 2 3 4 5 6; do echo \"log line $i\"; sleep 0.3; done) > app.log &"})
			if err := want(err, r, "outcome", "completed"); err != nil {
				return err
			}
			_, r, err = a.call("start_program", map[string]any{"argv": []string{"tail", "-n", "+1", "-f", filepath.Join(dir, "app.log")}})
			if err != nil {
				return err
			}
			_, r, err = a.call("wait_for_text", map[string]any{"paneId": str(r, "paneId"), "patterns": []string{"log line 6"}, "cursor": str(r, "cursor")})
			return want(err, r, "outcome", "matched")
		}},
		{"finding a pane again", func() error {
			text, _, err := a.call("list_panes", map[string]any{"sessionName": "work"})
			if err == nil && !regexp.MustCompile(`python3`).MatchString(text) {
				err = errors.New("list_panes does not show the python3 pane")
			}
			return err
		}},
	}
	var calls, chars int
	fmt.Printf("%-34s %5s %6s\n", "task", "calls", "chars")
	for _, t := range tasks {
		a.calls, a.chars = 0, 0
		if err := t.do(); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		fmt.Printf("%-34s %5d %6d\n", t.name, a.calls, a.chars)
		calls += a.calls
		chars += a.chars
	}
	fmt.Printf("%-34s %5d %6d\n", "total", calls, chars)
	return nil
}

// want checks that a call succeeded with r[key] == value.
func want(err error, r map[string]any, key, value string) error {
	if err != nil {
		return err
	}
	if got := str(r, key); got != value {
		return fmt.Errorf("%s is %q, want %q", key, got, value)
	}
	return nil
}

// cleanEnv is the environment without any tie to a tmux the user runs in,
// with TMUX_TMPDIR in dir, so nothing reaches the user's tmux server.
func cleanEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") || strings.HasPrefix(kv, "TMUX_MCP_") || strings.HasPrefix(kv, "TMUX_TMPDIR=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TMUX_TMPDIR="+dir)
}
