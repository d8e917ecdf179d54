package tools

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README tool table and TOOLS.md")

const (
	tableBegin    = "<!-- tools:begin (written by go test ./tools -update) -->"
	tableEnd      = "<!-- tools:end -->"
	toolsetsBegin = "<!-- toolsets:begin (written by go test ./tools -update) -->"
	toolsetsEnd   = "<!-- toolsets:end -->"
)

// toolsetTable renders each toolset and its tools as a Markdown table.
func toolsetTable() string {
	var b strings.Builder
	b.WriteString("| toolset | tools |\n| --- | --- |\n")
	for _, n := range toolsetNames {
		var names []string
		for _, t := range Catalogue {
			if t.Toolset == n.set {
				names = append(names, "`"+t.Name+"`")
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", n.name, strings.Join(names, " "))
	}
	return b.String()
}

// toolTable renders the catalogue as the README's Markdown table.
func toolTable() string {
	var b strings.Builder
	b.WriteString("| tool | what it does | toolset | safety |\n| --- | --- | --- | --- |\n")
	for _, t := range Catalogue {
		first, _, _ := strings.Cut(t.Description, ". ")
		first = strings.ReplaceAll(strings.TrimSuffix(first, "."), "|", "\\|")
		fmt.Fprintf(&b, "| `%s` | %s. | %s | %s |\n", t.Name, first, t.Toolset, className(t.Class))
	}
	return b.String()
}

func className(c Class) string {
	return map[Class]string{ReadOnly: "read-only", Idempotent: "idempotent", Mutating: "mutating", Destructive: "destructive"}[c]
}

// TestReadmeToolTable keeps README.md's tool and toolset tables equal to
// the catalogue.
func TestReadmeToolTable(t *testing.T) {
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	want := readme
	for _, table := range []struct{ begin, end, text string }{
		{tableBegin, tableEnd, toolTable()},
		{toolsetsBegin, toolsetsEnd, toolsetTable()},
	} {
		before, rest, ok1 := strings.Cut(want, table.begin)
		_, after, ok2 := strings.Cut(rest, table.end)
		if !ok1 || !ok2 {
			t.Fatalf("README.md lacks the markers %q … %q", table.begin, table.end)
		}
		want = before + table.begin + "\n" + table.text + table.end + after
	}
	if want == readme {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Error("README.md's tool tables differ from the catalogue; run go test ./tools -update")
}
