package server_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// secret is in every value a caller passes that may be a secret
// (environment values, typed and pasted text, buffer contents): no error
// may repeat it.
const secret = "s3cr3t-tmux-mcp-4711"

// An errorCase is one failure of one tool: its arguments (with <name>
// placeholders for the fixtures' ids) and a piece of text that says what
// is wrong, which the error must contain.
type errorCase struct {
	tool, args, want string
}

// errorCases provoke every failure class of every tool: a missing pane,
// window, session, buffer, command id or cursor (bad and foreign); a taken
// name; a bad layout; an unknown option; a dead pane, a pane in copy mode
// and the server's own pane as targets of input; a program that is
// missing or cannot run; and bad arguments a tool checks itself.
var errorCases = []errorCase{
	{"list_windows", `{"sessionId":"$99"}`, "session $99 not found"},
	{"list_panes", `{"windowId":"@99"}`, "window @99 not found"},
	{"list_panes", `{"sessionId":"$99"}`, "session $99 not found"},
	{"get_session_info", `{"sessionId":"$99"}`, "session $99 not found"},
	{"get_window_info", `{"windowId":"@99"}`, "window @99 not found"},
	{"get_pane_info", `{"paneId":"%99"}`, "pane %99 not found"},
	{"snapshot_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"find_pane_by_position", `{"paneId":"%99","side":"right"}`, "pane %99 not found"},
	{"find_pane_by_position", `{"windowId":"@99","x":0,"y":0}`, "window @99 not found"},
	{"find_pane_by_position", `{"windowId":"@0","x":500,"y":0}`, "outside window @0"},
	{"search_panes", `{"pattern":"(","regex":true}`, "not a valid"},
	{"search_panes", `{"pattern":"x","paneIds":["%99"]}`, "%99 not found"},
	{"search_panes", `{"pattern":"x","sessionId":"$99"}`, "$99 not found"},
	{"call_read_tools_batch", `{"calls":[{"tool":"get_pane_info","arguments":{"paneId":"%99"}}]}`, "pane %99 not found"},
	{"call_read_tools_batch", `{"calls":[{"tool":"send_keys","arguments":{"paneId":"%0","keys":"` + secret + `"}}]}`, "not a read-only tool"},

	{"create_session", `{"name":"main","env":{"API_TOKEN":"` + secret + `"}}`, `already named "main"`},
	{"create_session", `{"argv":["nosuch-cmd-tmux-mcp"],"env":{"API_TOKEN":"` + secret + `"}}`, "nosuch-cmd-tmux-mcp not found on PATH"},
	{"create_session", `{"argv":["/etc/passwd"],"env":{"API_TOKEN":"` + secret + `"}}`, "/etc/passwd is not executable"},
	{"create_window", `{"sessionId":"$99","env":{"API_TOKEN":"` + secret + `"}}`, "session $99 not found"},
	{"create_window", `{"sessionId":"$0","argv":["nosuch-cmd-tmux-mcp","` + secret + `"],"env":{"API_TOKEN":"` + secret + `"}}`, "nosuch-cmd-tmux-mcp not found on PATH"},
	{"create_window", `{"sessionId":"$0","argv":["/"]}`, "/ is a directory"},
	{"split_window", `{"paneId":"%99","env":{"API_TOKEN":"` + secret + `"}}`, "pane %99 not found"},
	{"split_window", `{"paneId":"%0","argv":["/etc/passwd"],"env":{"API_TOKEN":"` + secret + `"}}`, "/etc/passwd is not executable"},
	{"split_window", `{"paneId":"%0","argv":["/nonexistent/bin/prog"]}`, "/nonexistent/bin/prog does not exist"},
	{"split_window", `{"paneId":"<tiny>","env":{"API_TOKEN":"` + secret + `"}}`, "no space for new pane"},
	{"split_window", `{"paneId":"<tiny>","direction":"right"}`, "no space for new pane"},
	{"kill_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"kill_pane", `{"paneId":"<own>"}`, "where this MCP server itself runs"},
	{"kill_window", `{"windowId":"@99"}`, "window @99 not found"},
	{"kill_window", `{"windowId":"<ownWindow>"}`, "where this MCP server itself runs"},
	{"kill_session", `{"sessionId":"$99"}`, "session $99 not found"},
	{"kill_session", `{"sessionId":"<ownSession>"}`, "where this MCP server itself runs"},

	{"select_window", `{"windowId":"@99"}`, "window @99 not found"},
	{"select_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"select_layout", `{"windowId":"@99","layout":"tiled"}`, "window @99 not found"},
	{"select_layout", `{"windowId":"@0","layout":"no-such-layout"}`, "layout"},
	{"resize_pane", `{"paneId":"%99","width":30}`, "pane %99 not found"},
	{"resize_pane", `{"paneId":"%0"}`, "give exactly one of"},
	{"resize_pane", `{"paneId":"<copy>","zoomed":true}`, "has only pane"},
	{"resize_window", `{"windowId":"@99","width":100}`, "window @99 not found"},
	{"resize_window", `{"windowId":"<ownWindow>","width":100}`, "where this MCP server itself runs"},
	{"swap_pane", `{"paneId":"%99","targetPaneId":"%0"}`, "pane %99 not found"},
	{"swap_pane", `{"paneId":"%0","targetPaneId":"%0"}`, "the same pane"},
	{"move_window", `{"windowId":"@99","sessionId":"$0"}`, "window @99 not found"},
	{"move_window", `{"windowId":"<copyWindow>","sessionId":"$99"}`, "session $99 not found"},
	{"join_pane", `{"paneId":"%99","targetPaneId":"%0"}`, "pane %99 not found"},
	{"join_pane", `{"paneId":"%0","targetPaneId":"%99"}`, "pane %99 not found"},
	{"break_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"break_pane", `{"paneId":"<copy>"}`, "already alone"},
	{"rename_session", `{"sessionId":"$99","name":"x"}`, "session $99 not found"},
	{"rename_session", `{"sessionId":"$0","name":"self"}`, `already named "self"`},
	{"rename_window", `{"windowId":"@99","name":"x"}`, "window @99 not found"},
	{"rename_window", `{"windowId":"@0","name":"bad\\name"}`, "backslash"},
	{"set_pane_title", `{"paneId":"%99","title":"x"}`, "pane %99 not found"},
	{"respawn_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"respawn_pane", `{"paneId":"<own>"}`, "where this MCP server itself runs"},
	{"clear_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"clear_pane", `{"paneId":"<own>"}`, "where this MCP server itself runs"},

	{"send_keys", `{"paneId":"%99","keys":"` + secret + `"}`, "pane %99 not found"},
	{"send_keys", `{"paneId":"<dead>","keys":"` + secret + `"}`, "is dead"},
	{"send_keys", `{"paneId":"<copy>","keys":"` + secret + `"}`, "copy mode"},
	{"send_keys", `{"paneId":"<own>","keys":"` + secret + `"}`, "where this MCP server itself runs"},
	{"send_keys", `{"paneId":"%0","keys":[{"key":"` + secret + `"}]}`, "keys[0].key"},
	{"capture_pane", `{"paneId":"%99"}`, "pane %99 not found"},
	{"capture_pane", `{"paneId":"%0","start":10,"end":2}`, "is after end"},
	{"capture_since", `{"paneId":"%99"}`, "pane %99 not found"},
	{"capture_since", `{"paneId":"%0","cursor":"garbage"}`, "cursor"},
	{"capture_since", `{"paneId":"%0","cursor":"ltxc1.0123456789abcdef0123456789abcdef.42"}`, "cursor"},
	{"capture_since", `{"paneId":"%1","cursor":"<cursor0>"}`, "belongs to pane %0"},
	{"wait_for_text", `{"paneId":"%99","patterns":["x"],"timeoutMs":100}`, "pane %99 not found"},
	{"wait_for_text", `{"paneId":"%0","patterns":["("],"regex":true,"timeoutMs":100}`, "not a valid RE2"},
	{"wait_for_text", `{"paneId":"%0","patterns":["x"],"cursor":"ltxc1.0123456789abcdef0123456789abcdef.42","timeoutMs":100}`, "cursor"},
	{"wait_for_quiet", `{"paneId":"%99"}`, "pane %99 not found"},
	{"wait_for_quiet", `{"paneId":"%0","cursor":"garbage"}`, "cursor"},
	{"wait_for_quiet", `{"paneId":"%1","cursor":"<cursor0>"}`, "belongs to pane %0"},

	{"run_shell_command", `{"paneId":"%99","command":"echo ` + secret + `"}`, "pane %99 not found"},
	{"run_shell_command", `{"paneId":"<dead>","command":"echo ` + secret + `"}`, "is dead"},
	{"run_shell_command", `{"paneId":"<copy>","command":"echo ` + secret + `"}`, "copy mode"},
	{"run_shell_command", `{"paneId":"<own>","command":"echo ` + secret + `"}`, "where this MCP server itself runs"},
	{"run_shell_command", `{"paneId":"%1","command":"echo ` + secret + `"}`, "not a shell"},
	{"wait_for_command", `{"commandId":"cmd.0123abcd.1"}`, "not known to this server"},
	{"wait_for_command", `{"commandId":"garbage"}`, "commandId"},
	{"start_program", `{"argv":["nosuch-cmd-tmux-mcp","` + secret + `"],"env":{"API_TOKEN":"` + secret + `"}}`, "nosuch-cmd-tmux-mcp not found on PATH"},
	{"start_program", `{"argv":["/etc/passwd"],"env":{"API_TOKEN":"` + secret + `"}}`, "/etc/passwd is not executable"},
	{"start_program", `{"argv":["/"],"sessionName":"work"}`, "/ is a directory"},
	{"start_program", `{"argv":["cat"],"splitPaneId":"%99","env":{"API_TOKEN":"` + secret + `"}}`, "pane %99 not found"},
	{"start_program", `{"argv":["cat"],"cwd":"/nonexistent/dir"}`, "not a directory"},
	{"run_program", `{"argv":["nosuch-cmd-tmux-mcp","` + secret + `"],"env":{"API_TOKEN":"` + secret + `"}}`, "nosuch-cmd-tmux-mcp not found on PATH"},
	{"run_program", `{"argv":["/etc/passwd"],"env":{"API_TOKEN":"` + secret + `"}}`, "/etc/passwd is not executable"},
	{"run_program", `{"argv":["/nonexistent/bin/prog"],"sessionName":"work"}`, "/nonexistent/bin/prog does not exist"},
	{"run_program", `{"argv":["true"],"cwd":"/nonexistent/dir"}`, "not a directory"},
	{"wait_for_exit", `{"paneId":"%99","timeoutMs":100}`, "pane %99 not found"},
	{"wait_for_channel", `{"channel":"bad name!","timeout":1}`, "not a valid name"},
	{"wait_for_channel", `{"channel":"tmux-mcp-errors-test","timeout":0.2}`, "was not signalled"},
	{"wait_for_channel", `{"channel":"ch","timeout":1,"socket_name":"a/b"}`, "not a socket name"},
	{"signal_channel", `{"channel":"bad name!"}`, "channel"},
	{"signal_channel", `{"channel":"ch","socket_name":"a/b"}`, "not a socket name"},

	{"show_option", `{"scope":"pane","targetId":"%99"}`, "%99 not found"},
	{"show_option", `{"scope":"server","name":"no-such-option"}`, "no-such-option"},
	{"show_option", `{"scope":"session"}`, "needs targetId"},
	{"set_option", `{"scope":"server","name":"no-such-option","value":"` + secret + `"}`, "no-such-option"},
	{"set_option", `{"scope":"session","targetId":"$99","name":"@x","value":"` + secret + `"}`, "$99 not found"},
	{"set_option", `{"scope":"server","name":"@x"}`, "value is required"},
	{"set_option", `{"scope":"session","global":true,"name":"status-left-length","value":"#{` + secret + `}"}`, "contains '#'"},
	{"show_environment", `{"sessionId":"$99"}`, "$99 not found"},
	{"set_environment", `{"sessionId":"$99","name":"API_TOKEN","value":"` + secret + `"}`, "$99 not found"},
	{"show_hooks", `{"scope":"pane","targetId":"%99"}`, "%99 not found"},
	{"show_hooks", `{"global":true,"name":"no-such-hook"}`, "no-such-hook"},
	{"show_buffer", `{"name":"nosuch-buffer"}`, `buffer "nosuch-buffer" does not exist`},
	{"load_buffer", `{"name":"tmux-mcp-paste-x","text":"` + secret + `"}`, "private paste buffers"},
	{"paste_buffer", `{"paneId":"%0","name":"nosuch-buffer"}`, `buffer "nosuch-buffer" does not exist`},
	{"paste_buffer", `{"paneId":"%99","name":"held"}`, "pane %99 not found"},
	{"paste_buffer", `{"paneId":"<dead>","name":"held"}`, "is dead"},
	{"paste_buffer", `{"paneId":"<copy>","name":"held"}`, "copy mode"},
	{"paste_buffer", `{"paneId":"<own>","name":"held"}`, "where this MCP server itself runs"},
	{"delete_buffer", `{"name":"nosuch-buffer"}`, `buffer "nosuch-buffer" does not exist`},
	{"paste_text", `{"paneId":"%99","text":"` + secret + `"}`, "pane %99 not found"},
	{"paste_text", `{"paneId":"<dead>","text":"` + secret + `"}`, "is dead"},
	{"paste_text", `{"paneId":"<copy>","text":"` + secret + `"}`, "copy mode"},
	{"paste_text", `{"paneId":"<own>","text":"` + secret + `"}`, "where this MCP server itself runs"},
}

// noFailure are the tools that cannot fail against a running server
// whatever their arguments (the schema refuses bad ones before they run).
// Without a server list_sessions and list_buffers answer empty lists;
// TestErrorsWithoutAServer provokes get_server_info's one failure.
var noFailure = map[string]bool{"list_sessions": true, "get_server_info": true, "list_buffers": true}

// leaked matches what an error must never show: tmux argv and format
// strings, the runner's scripts and tmux commands, and tmux's name as
// the program that printed a message.
var leaked = regexp.MustCompile(`#\{| -t | -F |if-shell|source-file|pipe-pane|wait-for -S "\$|run-shell|display-message|new-window|new-session|split-window|send-keys|\$TMUX|\bexec "\$@"|(^|[\s/])tmux: |/tmux\b|FIFO|\.fifo|runner|\(\?m\)`)

// TestErrorsInTmuxWords provokes every failure class of every tool
// through the whole server and checks each error: isError, at most 400
// characters, saying what is wrong, and never tmux argv, format strings,
// scripts, temporary paths, or a secret the caller passed in. A failed call
// leaves tmux's sessions, windows and panes as they were.
func TestErrorsInTmuxWords(t *testing.T) {
	sock := tmuxtest.Server(t)
	run := func(args ...string) string { return strings.TrimSpace(tmuxtest.Run(t, sock, args...)) }
	// main ($0): @0 "first" with %0 (a shell) and %1 (cat); a window in
	// copy mode; a dead pane. self ($1, @1, %2): where this server "runs".
	run("rename-window", "-t", "@0", "first")
	run("split-window", "-d", "-t", "%0", "cat")
	own := strings.Fields(run("new-session", "-d", "-P", "-F", "#{session_id} #{window_id} #{pane_id}", "-s", "self", "-n", "self", "cat"))
	cp := strings.Fields(run("new-window", "-d", "-P", "-F", "#{window_id} #{pane_id}", "-t", "main:", "-n", "copy", "cat"))
	run("copy-mode", "-t", cp[1])
	dead := run("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:", "-n", "dead", "cat")
	run("set-option", "-w", "-t", dead, "remain-on-exit", "on")
	run("respawn-pane", "-k", "-t", dead, "exit 3")
	for i := 0; run("display-message", "-p", "-t", dead, "#{pane_dead}") != "1"; i++ {
		if i > 200 {
			t.Fatal("the dead pane's program did not exit")
		}
		time.Sleep(10 * time.Millisecond)
	}
	tiny := run("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:", "-n", "tiny", "cat")
	run("resize-window", "-t", tiny, "-x", "2", "-y", "2")
	run("set-buffer", "-b", "held", secret)
	t.Setenv("TMUX", sock+",1,0")
	t.Setenv("TMUX_PANE", own[2])

	cs := connect(t, sock)
	ids := strings.NewReplacer("<own>", own[2], "<ownWindow>", own[1], "<ownSession>", own[0],
		"<copy>", cp[1], "<copyWindow>", cp[0], "<dead>", dead, "<tiny>", tiny, "<cursor0>", cursorOf(t, cs, "%0"))
	objects := func() string { return run("list-panes", "-a", "-F", "#{session_id} #{window_id} #{pane_id}") }

	covered := map[string]bool{}
	longest, longestText := 0, ""
	for _, c := range errorCases {
		covered[c.tool] = true
		args := ids.Replace(c.args)
		t.Run(c.tool+" "+args, func(t *testing.T) {
			before := objects()
			for _, text := range callErrors(t, cs, c.tool, args) {
				if n := utf8.RuneCountInString(text); n > longest {
					longest, longestText = n, text
				}
				checkError(t, text, c.want, sock)
				t.Log(text)
			}
			if after := objects(); after != before {
				t.Errorf("the failed call changed tmux's panes:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
	for _, tool := range tools.Catalogue {
		if !covered[tool.Name] && !noFailure[tool.Name] {
			t.Errorf("%s has no row in errorCases: add its failures", tool.Name)
		}
	}
	t.Logf("%d cases; longest error (%d characters): %s", len(errorCases), longest, longestText)
}

// TestErrorsWithoutAServer: the tools that cannot otherwise fail, against
// a socket where no tmux server runs, say so in a short error.
func TestErrorsWithoutAServer(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "none")
	cs := connect(t, sock)
	for _, text := range callErrors(t, cs, "get_server_info", `{}`) {
		checkError(t, text, "no tmux server is running", sock)
	}
}

// connect serves the whole server (--safety destructive, every toolset)
// against the tmux on sock and returns a client session to it.
func connect(t *testing.T, sock string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary, cfg.SocketPath = "test", tmuxtest.Binary(), sock
	cfg.Safety, cfg.Toolsets = "destructive", "all"
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callErrors calls tool and returns its error texts: the isError
// result's, or for a batch the errors of its calls. A call that does not
// fail fails the test.
func callErrors(t *testing.T, cs *mcp.ClientSession, tool, args string) []string {
	t.Helper()
	var arguments map[string]any
	if err := json.Unmarshal([]byte(args), &arguments); err != nil {
		t.Fatalf("arguments %s: %v", args, err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: arguments})
	if err != nil {
		t.Fatalf("protocol error: %v", err)
	}
	var texts []string
	if res.IsError {
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
	} else if tool == "call_read_tools_batch" {
		var out struct {
			Results []struct {
				Error *string `json:"error"`
			} `json:"results"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Results {
			if r.Error != nil {
				texts = append(texts, *r.Error)
			}
		}
	}
	if len(texts) == 0 {
		b, _ := json.Marshal(res)
		t.Fatalf("did not fail: %.600s", b)
	}
	return texts
}

// checkError checks one error text: it says want, and nothing it must not.
// sock, the socket the server was configured with, is the one path an
// error may name.
func checkError(t *testing.T, text, want, sock string) {
	t.Helper()
	if n := utf8.RuneCountInString(text); n > 400 {
		t.Errorf("%d characters (most 400): %s", n, text)
	}
	if !strings.Contains(text, want) {
		t.Errorf("does not say %q: %s", want, text)
	}
	if strings.Contains(text, secret) {
		t.Errorf("repeats a secret the caller passed: %s", text)
	}
	rest := strings.ReplaceAll(text, sock, "<socket>")
	if m := leaked.FindString(rest); m != "" {
		t.Errorf("shows %q (argv, format, script or tmux's name): %s", m, text)
	}
	for _, dir := range []string{os.TempDir(), "/tmp/", "tmux-mcp-go-", "tmux-mcp-ack-"} {
		if strings.Contains(rest, dir) {
			t.Errorf("shows an internal path or channel (%s): %s", dir, text)
		}
	}
}

// cursorOf returns a cursor of pane's stream, for a call on another pane.
func cursorOf(t *testing.T, cs *mcp.ClientSession, pane string) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "capture_since", Arguments: map[string]any{"paneId": pane}})
	if err != nil || res.IsError {
		t.Fatalf("capture_since %s: %v %v", pane, err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Cursor string `json:"cursor"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Cursor == "" {
		t.Fatalf("no cursor in %s", b)
	}
	return out.Cursor
}
