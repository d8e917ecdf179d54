package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// TestReadOnlyToolsChangeNothing calls every catalogue tool of class
// ReadOnly — found from the catalogue, so a new one is covered the day it
// is added — with its catalogue Example and any in moreArgs
// (args_fuzz_test.go), against a private tmux, and
// compares tmux's state before and after: sessions, windows, panes and
// their sizes and modes, options at every scope, hooks, buffers,
// environment and clients. The one footprint allowed while the server
// runs is the pipe (and its @tmux-mcp-pipe mark) of a pane being watched,
// as the README says; once the server has stopped, not even that.
func TestReadOnlyToolsChangeNothing(t *testing.T) {
	for _, tier := range []tools.Class{tools.ReadOnly, tools.Mutating} {
		t.Run(tools.TierName(tier), func(t *testing.T) { readOnlyChangesNothing(t, tier) })
	}
}

func readOnlyChangesNothing(t *testing.T, tier tools.Class) {
	sock := tmuxtest.Server(t)
	run := func(args ...string) string { return tmuxtest.Run(t, sock, args...) }
	// Quiet panes (cat prints nothing unless typed to), in the ids the
	// examples use: %0 and %1 side by side in @0 of $0, more windows, a
	// dead pane, a second session; and things of the user's own that a
	// careless tool could disturb: a hook, a buffer, environment, options.
	// Windows are named, so that tmux's automatic renaming (a window
	// named after its program) cannot change them while the test runs.
	run("respawn-pane", "-k", "-t", "%0", "cat")
	run("rename-window", "-t", "@0", "first")
	run("split-window", "-d", "-h", "-t", "%0", "cat")
	run("new-window", "-d", "-n", "second", "-t", "main:", "cat")
	run("set-option", "-g", "remain-on-exit", "on")
	run("new-window", "-d", "-n", "dead", "-t", "main:", "sh", "-c", "exit 3")
	run("new-session", "-d", "-s", "other", "-n", "third", "-x", "100", "-y", "30", "cat")
	run("set-hook", "-g", "after-new-window", "display-message created")
	run("set-buffer", "-b", "mine", "user text")
	run("set-environment", "-g", "USER_VAR", "kept")
	run("set-option", "-p", "-t", "%1", "@user-mark", "x")
	// wait_for_channel's examples wait on "ch": a signal tmux keeps for
	// the next wait lets one return at once instead of timing out.
	run("wait-for", "-S", "ch")
	// The dead pane must be dead before the state is taken: on a loaded
	// machine its shell may not have exited yet, and tmux 3.3a reaps a
	// child only when it next reaps one (run-shell does).
	for i := 0; ; i++ {
		run("run-shell", "true")
		if strings.TrimSpace(run("display-message", "-p", "-t", "main:dead", "#{pane_dead}")) == "1" {
			break
		}
		if i == 100 {
			t.Fatal("the pane of window dead never died")
		}
		time.Sleep(20 * time.Millisecond)
	}
	before := tmuxState(t, sock)

	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs, stop := serve(t, client, tier, nil)
	defer stop()

	called, last := 0, before
	for _, tool := range tools.Catalogue {
		if tool.Class != tools.ReadOnly {
			continue
		}
		called++
		examples := tools.ValidExamples(tool)
		succeeded := false
		for _, example := range examples {
			var args map[string]any
			if err := json.Unmarshal([]byte(example), &args); err != nil {
				t.Fatalf("%s: example %s: %v", tool.Name, example, err)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool.Name, Arguments: args})
			if err != nil {
				t.Fatalf("%s %s: %v", tool.Name, example, err)
			}
			succeeded = succeeded || !res.IsError
			// Each call is compared with the state just before it, so a
			// change is blamed on the call that made it.
			after := withoutWatching(tmuxState(t, sock))
			if diff := stateDiff(last, after); diff != "" {
				t.Errorf("%s %s changed tmux:\n%s", tool.Name, example, diff)
			}
			last = after
		}
		if !succeeded && answersOnlyEarlierCalls[tool.Name] == "" {
			t.Errorf("%s: neither its Example nor moreArgs (args_fuzz_test.go) succeeded against the test server, so this test did not really run it", tool.Name)
		}
	}
	if called == 0 {
		t.Fatal("no read-only tools in the catalogue")
	}
	stop()
	if diff := stateDiff(before, tmuxState(t, sock)); diff != "" {
		t.Errorf("after the server stopped, tmux differs from before:\n%s", diff)
	}
}

// tmuxState describes everything a tool could change in tmux, one line
// per fact, each prefixed with what it is.
func tmuxState(t *testing.T, sock string) []string {
	t.Helper()
	run := func(args ...string) string { return tmuxtest.Run(t, sock, args...) }
	var lines []string
	add := func(what, out string) {
		for _, l := range strings.Split(out, "\n") {
			if l != "" {
				lines = append(lines, what+": "+l)
			}
		}
	}
	add("session", run("list-sessions", "-F", "#{session_id} #{session_name} windows=#{session_windows} attached=#{session_attached}"))
	add("window", run("list-windows", "-a", "-F", "#{session_id} #{window_id} #{window_index} #{window_name} active=#{window_active} #{window_width}x#{window_height} #{window_layout} zoomed=#{window_zoomed_flag}"))
	add("pane", run("list-panes", "-a", "-F", "#{pane_id} #{pane_index} active=#{pane_active} #{pane_width}x#{pane_height} at=#{pane_left},#{pane_top} dead=#{pane_dead} mode=#{pane_mode} scroll=#{scroll_position} pipe=#{pane_pipe} title=#{pane_title} history=#{history_size} cursor=#{cursor_x},#{cursor_y}"))
	add("client", run("list-clients", "-F", "#{client_name} #{client_session}"))
	add("buffer", run("list-buffers", "-F", "#{buffer_name} #{buffer_size} #{buffer_sample}"))
	add("server option", run("show-options", "-s"))
	add("global option", run("show-options", "-g"))
	add("global window option", run("show-options", "-g", "-w"))
	add("global hook", run("show-hooks", "-g"))
	add("global environment", run("show-environment", "-g"))
	for _, s := range strings.Fields(run("list-sessions", "-F", "#{session_id}")) {
		add("option of "+s, run("show-options", "-t", s))
		add("hook of "+s, run("show-hooks", "-t", s))
		add("environment of "+s, run("show-environment", "-t", s))
	}
	for _, w := range strings.Fields(run("list-windows", "-a", "-F", "#{window_id}")) {
		add("option of "+w, run("show-options", "-w", "-t", w))
	}
	for _, p := range strings.Fields(run("list-panes", "-a", "-F", "#{pane_id}")) {
		add("option of "+p, run("show-options", "-p", "-t", p))
	}
	return lines
}

// withoutWatching removes the footprint of watching a pane's output: its
// pipe and the pipe's @tmux-mcp-pipe mark.
func withoutWatching(state []string) []string {
	out := make([]string, 0, len(state))
	for _, l := range state {
		if strings.HasPrefix(l, "option of %") && strings.Contains(l, ": "+tmuxctl.PipeOption+" ") {
			continue
		}
		out = append(out, pipeFlag.ReplaceAllString(l, "pipe=0"))
	}
	return out
}

var pipeFlag = regexp.MustCompile(`pipe=1`)

// stateDiff lists the lines only in before (-) and only in after (+).
func stateDiff(before, after []string) string {
	count := map[string]int{}
	for _, l := range before {
		count[l]++
	}
	for _, l := range after {
		count[l]--
	}
	var b strings.Builder
	for _, l := range before {
		if count[l] > 0 {
			fmt.Fprintf(&b, "- %s\n", l)
			count[l]--
		}
	}
	for _, l := range after {
		if count[l] < 0 {
			fmt.Fprintf(&b, "+ %s\n", l)
			count[l]++
		}
	}
	return b.String()
}

// answersOnlyEarlierCalls are read-only tools that can only succeed on what
// an earlier call of another tool made, so here they are called (and must
// change nothing) but are allowed to answer with an error.
var answersOnlyEarlierCalls = map[string]string{
	"wait_for_command": "its commandId comes from run_shell_command, which this test does not call",
}
