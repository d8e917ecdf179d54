package tools

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/schemas"
)

// TestToolsMarkdown keeps TOOLS.md equal to what the catalogue and the
// schema files say; go test ./tools -update rewrites it.
func TestToolsMarkdown(t *testing.T) {
	var b strings.Builder
	if err := WriteToolsMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	want := b.String()
	path := filepath.Join("..", "TOOLS.md")
	got, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if string(got) == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Error("TOOLS.md differs from the catalogue and schemas; run go test ./tools -update")
}

// TestToolsMarkdownCoversEveryTool checks that TOOLS.md has, for every
// tool, a heading, a contents entry, its toolset and tier, its outcomes and
// an input row for every field, item fields included.
func TestToolsMarkdownCoversEveryTool(t *testing.T) {
	var b strings.Builder
	if err := WriteToolsMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, tool := range Catalogue {
		section, ok := toolSection(doc, tool.Name)
		if !ok {
			t.Errorf("TOOLS.md has no section ### %s", tool.Name)
			continue
		}
		if !strings.Contains(doc, "["+tool.Name+"](#"+tool.Name+")") {
			t.Errorf("TOOLS.md's contents do not link %s", tool.Name)
		}
		if !strings.Contains(section, "toolset `"+tool.Toolset.String()+"`, tier `"+TierName(tool.Class)+"`") {
			t.Errorf("%s: section does not give toolset %s and tier %s", tool.Name, tool.Toolset, TierName(tool.Class))
		}
		in, err := parseDocSchema(schemas.Input(tool.Name))
		if err != nil {
			t.Fatal(err)
		}
		out, err := parseDocSchema(schemas.Output(tool.Name))
		if err != nil {
			t.Fatal(err)
		}
		if o := out.Properties["outcome"]; o != nil {
			for _, v := range enumOf(o) {
				if !strings.Contains(section, "`"+v+"`") {
					t.Errorf("%s: outcome %s is not listed", tool.Name, v)
				}
			}
		}
		for field, p := range in.Properties {
			fields := []string{field}
			if p.Items != nil {
				for sub := range p.Items.Properties {
					fields = append(fields, field+"[]."+sub)
				}
			}
			for _, f := range fields {
				if !strings.Contains(section, "| `"+f+"` |") {
					t.Errorf("%s: no input row for %s", tool.Name, f)
				}
			}
		}
	}
}

// toolSection is the text of TOOLS.md under ### name, up to the next heading.
func toolSection(doc, name string) (string, bool) {
	_, rest, ok := strings.Cut(doc, "\n### "+name+"\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n#"); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

// TestToolNotesMatchReadme keeps toolNotes equal to README's "Tool notes":
// a bullet belongs to the tools named in its bold lead or in the
// parenthesis right after it.
func TestToolNotesMatchReadme(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n### Tool notes\n")
	if !ok {
		t.Fatal("README.md has no ### Tool notes section")
	}
	var bullets []string // the section's first list, each item on one line
lines:
	for _, line := range strings.Split(section, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			bullets = append(bullets, line)
		case len(bullets) > 0 && strings.HasPrefix(line, "  "):
			bullets[len(bullets)-1] += " " + strings.TrimSpace(line)
		case len(bullets) > 0 && strings.TrimSpace(line) != "":
			break lines
		}
	}
	lead := regexp.MustCompile(`^- \*\*(.+?)\*\*(?: \(([^)]*)\))?`)
	code := regexp.MustCompile("`([a-z_]+)`")
	got := map[string][]string{}
	for _, bullet := range bullets {
		m := lead.FindStringSubmatch(bullet)
		if m == nil {
			t.Errorf("README tool note without a bold lead: %.60s…", bullet)
			continue
		}
		for _, c := range code.FindAllStringSubmatch(m[1]+" "+m[2], -1) {
			if _, ok := lookup(c[1]); ok {
				got[c[1]] = appendNew(got[c[1]], m[1])
			}
		}
	}
	if len(got) == 0 {
		t.Fatal("found no tool notes in README.md")
	}
	for _, tool := range Catalogue {
		if readme, ours := got[tool.Name], toolNotes[tool.Name]; !slices.Equal(readme, ours) {
			t.Errorf("%s: README's Tool notes give %q, toolNotes in tools/docs.go %q; make toolNotes follow the README", tool.Name, readme, ours)
		}
	}
}
