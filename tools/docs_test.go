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

// TestToolsMarkdown keeps docs/tools.md equal to what the catalogue and
// the schema files say; go generate ./... rewrites it.
func TestToolsMarkdown(t *testing.T) {
	var b strings.Builder
	if err := WriteToolsMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "docs", "tools.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != b.String() {
		t.Error("docs/tools.md differs from the catalogue and schemas; run go generate ./...")
	}
}

// TestDocTables keeps the generated tables of README.md and docs/*.md
// equal to the catalogue; go generate ./... rewrites them. README must
// have the toolsets table.
func TestDocTables(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join("..", "README.md"))
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := FillDocTables(string(b))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if want != string(b) {
			t.Errorf("%s: its generated tables differ from the catalogue; run go generate ./...", path)
		}
		if filepath.Base(path) == "README.md" && !strings.Contains(string(b), "<!-- toolsets:begin (written by go generate) -->") {
			t.Error("README.md has no toolsets table")
		}
	}
}

// TestFillDocTables checks that a generated table is rewritten whole, that
// the text around it is kept, and that a table with no end or an unknown
// name is an error.
func TestFillDocTables(t *testing.T) {
	begin, end := "<!-- toolsets:begin (written by go generate) -->\n", "<!-- toolsets:end -->"
	got, err := FillDocTables("before\n" + begin + "stale\n" + end + "\nafter\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "before\n" + begin + toolsetTable() + end + "\nafter\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := FillDocTables(begin + "no end\n"); err == nil {
		t.Error("a table with no end: no error")
	}
	if _, err := FillDocTables("<!-- nosuch:begin (written by go generate) -->\n<!-- nosuch:end -->"); err == nil {
		t.Error("an unknown table: no error")
	}
}

// TestToolsMarkdownCoversEveryTool checks that docs/tools.md has, for every
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
			t.Errorf("docs/tools.md has no section ### %s", tool.Name)
			continue
		}
		if !strings.Contains(doc, "["+tool.Name+"](#"+tool.Name+")") {
			t.Errorf("docs/tools.md's contents do not link %s", tool.Name)
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

// toolSection is the text of docs/tools.md under ### name, up to the next heading.
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

// TestToolNotesMatchDocs keeps toolNotes equal to the "Tool notes" of
// docs/how-it-works.md: a bullet belongs to the tools named in its bold
// lead or in the parenthesis right after it.
func TestToolNotesMatchDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "how-it-works.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Tool notes\n")
	if !ok {
		t.Fatal("docs/how-it-works.md has no ## Tool notes section")
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
			t.Errorf("tool note without a bold lead: %.60s…", bullet)
			continue
		}
		for _, c := range code.FindAllStringSubmatch(m[1]+" "+m[2], -1) {
			if _, ok := lookup(c[1]); ok {
				got[c[1]] = appendNew(got[c[1]], m[1])
			}
		}
	}
	if len(got) == 0 {
		t.Fatal("found no tool notes in docs/how-it-works.md")
	}
	for _, tool := range Catalogue {
		if readme, ours := got[tool.Name], toolNotes[tool.Name]; !slices.Equal(readme, ours) {
			t.Errorf("%s: the Tool notes in docs/how-it-works.md give %q, toolNotes in tools/docs.go %q; make toolNotes follow the notes", tool.Name, readme, ours)
		}
	}
}
