package prompts_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

func connect(t *testing.T, sock string) *mcp.ClientSession {
	t.Helper()
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary, cfg.SocketPath = "test", tmuxtest.Binary(), sock
	cfg.Safety = "readonly"
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.MCP.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestPrompts(t *testing.T) {
	cs := connect(t, tmuxtest.Server(t))
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string][]string{}
	for _, p := range list.Prompts {
		for _, a := range p.Arguments {
			name := a.Name
			if a.Required {
				name += "*"
			}
			args[p.Name] = append(args[p.Name], name)
		}
		if p.Title == "" || p.Description == "" {
			t.Errorf("prompt %s without a title or description", p.Name)
		}
	}
	want := map[string]string{"run_and_check": "paneId* command* expect", "watch_job": "paneId* done", "why_stuck": "paneId*"}
	if len(args) != len(want) {
		t.Fatalf("prompts %v, want %v", args, want)
	}
	for name, w := range want {
		if got := strings.Join(args[name], " "); got != w {
			t.Errorf("prompt %s arguments %q, want %q", name, got, w)
		}
	}

	for _, tc := range []struct {
		name string
		args map[string]string
		want []string
	}{
		{"run_and_check", map[string]string{"paneId": "%0", "command": "make test", "expect": "PASS"},
			[]string{"pane %0", "    make test\n", "run_shell_command", "wait_for_command", "exitStatus", "PASS"}},
		{"watch_job", map[string]string{"paneId": "%3", "done": "Build succeeded"},
			[]string{"pane %3", "capture_since", `wait_for_text with paneId %3, the cursor, patterns ["Build succeeded"]`}},
		{"watch_job", map[string]string{"paneId": "%3"}, []string{"wait_for_exit with paneId %3"}},
		{"why_stuck", map[string]string{"paneId": "%2"}, []string{"pane %2", "get_pane_info", "copy mode", "wait_for_quiet", "ask before"}},
	} {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: tc.name, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		text := res.Messages[0].Content.(*mcp.TextContent).Text
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: text lacks %q:\n%s", tc.name, tc.args, w, text)
			}
		}
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "run_and_check", Arguments: map[string]string{"paneId": "%0"}}); err == nil ||
		!strings.Contains(err.Error(), "prompt run_and_check needs command") {
		t.Fatalf("a prompt without a required argument: %v", err)
	}
}

func TestCompletePaneIDs(t *testing.T) {
	sock := tmuxtest.Server(t)
	for i := 0; i < 11; i++ {
		tmuxtest.Run(t, sock, "new-window", "-d", "-t", "main:", "cat")
	}
	cs := connect(t, sock)
	if cs.InitializeResult().Capabilities.Completions == nil {
		t.Fatal("no completions capability")
	}
	ctx := context.Background()
	complete := func(ref *mcp.CompleteReference, arg, value string) string {
		t.Helper()
		res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(res.Completion.Values, " ")
	}
	prompt := &mcp.CompleteReference{Type: "ref/prompt", Name: "why_stuck"}
	screen := &mcp.CompleteReference{Type: "ref/resource", URI: "tmux://panes/{paneId}/screen"}
	for _, tc := range []struct {
		ref        *mcp.CompleteReference
		arg, value string
		want       string
	}{
		{prompt, "paneId", "", "%0 %1 %2 %3 %4 %5 %6 %7 %8 %9 %10 %11"},
		{prompt, "paneId", "%1", "%1 %10 %11"},
		{prompt, "paneId", "1", "%1 %10 %11"},
		{prompt, "paneId", "%7", "%7"},
		{prompt, "paneId", "%99", ""},
		{screen, "paneId", "%1", "%1 %10 %11"},
		{prompt, "command", "ma", ""},
	} {
		if got := complete(tc.ref, tc.arg, tc.value); got != tc.want {
			t.Errorf("complete %s %s=%q: %q, want %q", tc.ref.Type, tc.arg, tc.value, got, tc.want)
		}
	}
}
