package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// An offeredTool is one line of `tmux-mcp tools`.
type offeredTool struct {
	Name    string `json:"name"`
	Toolset string `json:"toolset"`
	Tier    string `json:"tier"`
	Summary string `json:"summary"`
}

// offered lists the tools a server built from cfg serves, in catalogue
// order (grouped by family).
func offered(cfg server.Config) []offeredTool {
	var out []offeredTool
	for _, t := range cfg.Offered() {
		out = append(out, offeredTool{Name: t.Name, Toolset: t.Toolset.String(), Tier: tools.TierName(t.Class), Summary: firstSentence(t.Description)})
	}
	return out
}

// runTools is `tmux-mcp tools`: what the configured tier offers, one line
// each, or a JSON array with --json. It needs no tmux.
func runTools(_ context.Context, c *Command, env Env) int {
	if len(env.Args) > 0 {
		fmt.Fprintln(env.Stderr, "tmux-mcp tools: takes no words, only flags (--json, --safety, --toolsets, --tools)")
		return exitUsage
	}
	list := offered(env.Config)
	if c.json {
		data, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			fmt.Fprintf(env.Stderr, "tmux-mcp tools: %v\n", err)
			return exitError
		}
		fmt.Fprintf(env.Stdout, "%s\n", data)
		return exitOK
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "TOOL\tTOOLSET\tTIER\tWHAT IT DOES")
	for _, t := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.Name, t.Toolset, t.Tier, t.Summary)
	}
	w.Flush()
	fmt.Fprintf(env.Stdout, "\n%d tools at --safety=%s %s (--toolsets all offers every one); `tmux-mcp call TOOL '{…}'` runs one.\n",
		len(list), env.TierName(), env.Offer())
	return exitOK
}

// firstSentence is s up to the first full stop that ends a sentence: one
// followed by a space and a capital letter, or by the end ("e.g. a pane"
// does not end one).
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); i++ {
		if s[i] != '.' {
			continue
		}
		rest := s[i+1:]
		if rest == "" {
			return s
		}
		if strings.HasPrefix(rest, " ") {
			next := strings.TrimLeft(rest, " ")
			if next != "" && unicode.IsUpper(rune(next[0])) {
				return s[:i+1]
			}
		}
	}
	return s
}
