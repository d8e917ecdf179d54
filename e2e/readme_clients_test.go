package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// clientSnippet is one client config block of the docs: the client it is
// for, its language, and its text.
type clientSnippet struct{ client, lang, text string }

var snippetRE = regexp.MustCompile("(?s)<!-- client: ([a-z-]+) -->\n```([a-z]+)\n(.*?)```")

// snippetDocs are the documents with client snippets: README's five
// clients, and docs/usage.md's tmux on another machine (ssh).
var snippetDocs = []string{filepath.Join("..", "README.md"), filepath.Join("..", "docs", "usage.md")}

// readmeSnippets returns every client snippet in snippetDocs.
func readmeSnippets(t *testing.T) []clientSnippet {
	t.Helper()
	var out []clientSnippet
	for _, path := range snippetDocs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range snippetRE.FindAllStringSubmatch(string(b), -1) {
			out = append(out, clientSnippet{m[1], m[2], m[3]})
		}
	}
	return out
}

// commandOf reads the command and arguments a snippet makes its client run.
func commandOf(t *testing.T, s clientSnippet) (string, []string) {
	t.Helper()
	type server struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	one := func(servers map[string]server) server {
		if len(servers) != 1 {
			t.Fatalf("%s: want one server, got %d", s.client, len(servers))
		}
		for _, v := range servers {
			return v
		}
		return server{}
	}
	switch s.lang {
	case "sh": // claude mcp add NAME -- COMMAND ARGS...
		f := strings.Fields(strings.TrimSpace(s.text))
		if len(f) < 5 || f[0] != "claude" || f[1] != "mcp" || f[2] != "add" {
			t.Fatalf("%s: not a claude mcp add command: %q", s.client, s.text)
		}
		for i, w := range f {
			if w == "--" && i+1 < len(f) {
				return f[i+1], f[i+2:]
			}
		}
		t.Fatalf("%s: no -- before the command: %q", s.client, s.text)
	case "json":
		var doc struct {
			MCPServers map[string]server `json:"mcpServers"`
			Servers    map[string]server `json:"servers"`
		}
		dec := json.NewDecoder(strings.NewReader(s.text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("%s: %v", s.client, err)
		}
		if s.client == "vscode" {
			srv := one(doc.Servers)
			if srv.Type != "stdio" {
				t.Fatalf("vscode: type %q, want stdio", srv.Type)
			}
			return srv.Command, srv.Args
		}
		if doc.Servers != nil {
			t.Fatalf("%s: \"servers\" is VS Code's key; this client reads mcpServers", s.client)
		}
		srv := one(doc.MCPServers)
		return srv.Command, srv.Args
	case "toml": // Codex: [mcp_servers.NAME] with command and args
		var cmd string
		var args []string
		table := false
		for _, line := range strings.Split(strings.TrimSpace(s.text), "\n") {
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "[mcp_servers.") && strings.HasSuffix(line, "]"):
				table = true
			case strings.HasPrefix(line, "command = "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "command = ")), &cmd); err != nil {
					t.Fatalf("codex command: %v", err)
				}
			case strings.HasPrefix(line, "args = "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "args = ")), &args); err != nil {
					t.Fatalf("codex args: %v", err)
				}
			default:
				t.Fatalf("codex: unexpected line %q", line)
			}
		}
		if !table {
			t.Fatal("codex: no [mcp_servers.NAME] table")
		}
		return cmd, args
	}
	t.Fatalf("%s: snippet in %s, which no client reads", s.client, s.lang)
	return "", nil
}

// TestReadmeClientSnippets checks that README.md (with docs/usage.md for
// ssh) has a snippet for each client, that each parses as that client
// reads it, and that tmux-mcp started with its arguments serves MCP on
// stdio: it answers initialize and lists the sessions of the private tmux
// the test points it at (-S, which wins over a snippet's -L).
func TestReadmeClientSnippets(t *testing.T) {
	sock := tmuxtest.Server(t)
	want := map[string]bool{"claude-code": true, "claude-desktop": true, "cursor": true, "vscode": true, "codex": true, "ssh": true}
	for _, s := range readmeSnippets(t) {
		if !want[s.client] {
			t.Errorf("the docs have a snippet for %q, which this test does not know (or twice)", s.client)
			continue
		}
		delete(want, s.client)
		cmd, args := commandOf(t, s)
		if s.client == "ssh" {
			if cmd != "ssh" || len(args) < 3 || args[0] != "-T" || args[2] != "tmux-mcp" {
				t.Fatalf("ssh: want ssh -T HOST tmux-mcp ARGS..., got %s %q", cmd, args)
			}
			cmd, args = args[2], args[3:]
		}
		if cmd != "tmux-mcp" {
			t.Errorf("%s: command %q, want tmux-mcp", s.client, cmd)
			continue
		}
		t.Run(s.client, func(t *testing.T) {
			m := launchMCP(t, sock, "", args...)
			out := m.mustTool(t, "list_sessions", map[string]any{})
			sessions, _ := out["sessions"].([]any)
			if len(sessions) != 1 || sessions[0].(map[string]any)["sessionName"] != "main" {
				t.Errorf("tmux-mcp %q: list_sessions gave %v, want the test's one session main", args, out["sessions"])
			}
		})
	}
	for c := range want {
		t.Errorf("the docs have no snippet for %s (README.md, docs/usage.md)", c)
	}
}
