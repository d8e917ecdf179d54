package main

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// clientSnippet is one README config block: the client it is for, its
// language, and its text.
type clientSnippet struct{ client, lang, text string }

var snippetRE = regexp.MustCompile("(?s)<!-- client: ([a-z-]+) -->\n```([a-z]+)\n(.*?)```")

// readmeSnippets returns every client snippet in README.md.
func readmeSnippets(t *testing.T) []clientSnippet {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []clientSnippet
	for _, m := range snippetRE.FindAllStringSubmatch(string(b), -1) {
		out = append(out, clientSnippet{m[1], m[2], m[3]})
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

// TestReadmeClientSnippets checks that README.md has a snippet for each
// client, that each parses as that client reads it, and that the server
// accepts the arguments it would be started with (and serves stdio).
func TestReadmeClientSnippets(t *testing.T) {
	want := map[string]bool{"claude-code": true, "claude-desktop": true, "cursor": true, "vscode": true, "codex": true, "ssh": true}
	for _, s := range readmeSnippets(t) {
		if !want[s.client] {
			t.Errorf("README has a snippet for %q, which this test does not know (or twice)", s.client)
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
		}
		cfg, err := parseFlags(args, io.Discard)
		if err != nil {
			t.Errorf("%s: tmux-mcp %q: %v", s.client, args, err)
		}
		if cfg.command != nil || cfg.HTTPAddr != "" {
			t.Errorf("%s: tmux-mcp %q does not serve MCP on stdio", s.client, args)
		}
	}
	for c := range want {
		t.Errorf("README has no snippet for %s", c)
	}
}
