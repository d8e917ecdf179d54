package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
)

// TestCompiledPatternsStillCheck decodes through a generated validator
// whose pattern is now a compiled variable: a value that does not match
// is refused with go-jsonschema's own words, and one that does is taken.
func TestCompiledPatternsStillCheck(t *testing.T) {
	var in gen.GetPaneInfoInput
	err := json.Unmarshal([]byte(`{"paneId":"0"}`), &in)
	if err == nil || err.Error() != "field PaneID pattern match: must match ^%\\d+$" {
		t.Fatalf("paneId 0: err %v", err)
	}
	if err := json.Unmarshal([]byte(`{"paneId":"%12"}`), &in); err != nil || in.PaneID != "%12" {
		t.Fatalf("paneId %%12: %+v, err %v", in, err)
	}
}

func TestCompilePatternsOnce(t *testing.T) {
	src := "package gen\n\nimport \"regexp\"\n\nfunc f(a, b string) bool {\n" +
		"\tif matched, _ := regexp.MatchString(`^a$`, a); !matched {\n\t\treturn false\n\t}\n" +
		"\tif matched, _ := regexp.MatchString(`^b+$`, b); !matched {\n\t\treturn false\n\t}\n" +
		"\tif matched, _ := regexp.MatchString(`^a$`, b); !matched {\n\t\treturn false\n\t}\n" +
		"\tif matched, _ := regexp.MatchString(`(`, b); !matched {\n\t\treturn false\n\t}\n\treturn true\n}\n"
	file := filepath.Join(t.TempDir(), "x.gen.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compilePatternsOnce(file, "FooInput"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	for _, want := range []string{
		"if matched := fooInputPattern0.MatchString(a); !matched",
		"if matched := fooInputPattern1.MatchString(b); !matched",
		"if matched := fooInputPattern0.MatchString(b); !matched", // the same pattern, one variable
		"if matched, _ := regexp.MatchString(`(`, b)",             // does not compile: left alone
		"\tfooInputPattern0 = regexp.MustCompile(`^a$`)\n\tfooInputPattern1 = regexp.MustCompile(`^b+$`)\n)\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, got)
		}
	}
}
