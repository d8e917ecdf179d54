package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

func TestFirstSentence(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Return one pane. Then more.", "Return one pane."},
		{"Stable pane id, e.g. %1, of the pane. Next.", "Stable pane id, e.g. %1, of the pane."},
		{"Version 3.2a. More.", "Version 3.2a."},
		{"No full stop at all", "No full stop at all"},
		{"Ends here.", "Ends here."},
		{"  Spaces first. X", "Spaces first."},
	} {
		if got := firstSentence(tc.in); got != tc.want {
			t.Errorf("firstSentence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every catalogue tool gets a one-line summary that ends a sentence.
func TestToolsSummaries(t *testing.T) {
	all := offered(offer("destructive", "all"))
	if len(all) != len(tools.Catalogue) {
		t.Fatalf("destructive tier offers %d of %d tools", len(all), len(tools.Catalogue))
	}
	for _, o := range all {
		if o.Summary == "" || !strings.HasSuffix(o.Summary, ".") || strings.Contains(o.Summary, "\n") {
			t.Errorf("%s: summary %q", o.Name, o.Summary)
		}
	}
	if n := len(offered(offer("readonly", "all"))); n == 0 || n >= len(all) {
		t.Errorf("readonly tier offers %d tools", n)
	}
	def := offered(offer("destructive", ""))
	if len(def) == 0 || len(def) >= len(all) {
		t.Errorf("the default toolset offers %d of %d tools", len(def), len(all))
	}
	for _, o := range def {
		if o.Toolset != "default" {
			t.Errorf("%s: toolset %q in the default selection", o.Name, o.Toolset)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"call", "demo", "doctor", "tools", "watch"} {
		c := Lookup(name)
		if c == nil || c.Name != name {
			t.Fatalf("Lookup(%q) = %v", name, c)
		}
	}
	if Lookup("serve") != nil || Lookup("-L") != nil {
		t.Fatal("Lookup found a command that is not one")
	}
	if a, b := Lookup("call"), Lookup("call"); a == b {
		t.Fatal("Lookup returned the same command twice: its flags would be shared")
	}
	if List() != "call, demo, doctor, tools, watch" {
		t.Fatalf("List() = %q", List())
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"no_such_tool"}, {"list_panes", "{"}, {"list_panes", "null"}, {"list_panes", "[]"}, {"a", "b", "c"}} {
		var out, errOut bytes.Buffer
		c := Lookup("call")
		if got := c.Run(Env{Args: args, Stdout: &out, Stderr: &errOut}); got != exitUsage {
			t.Errorf("call %q: exit %d, want %d (%s)", args, got, exitUsage, errOut.String())
		}
		if out.Len() != 0 {
			t.Errorf("call %q printed on stdout: %q", args, out.String())
		}
	}
}

// offer is the default configuration at safety tier with toolsets.
func offer(safety, toolsets string) server.Config {
	cfg := server.Defaults()
	cfg.Safety, cfg.Toolsets = safety, toolsets
	return cfg
}
