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
		"import \"regexp\"\nimport \"sync\"\n",
		"if matched := fooInputPattern0().MatchString(a); !matched",
		"if matched := fooInputPattern1().MatchString(b); !matched",
		"if matched := fooInputPattern0().MatchString(b); !matched", // the same pattern, one variable
		"if matched, _ := regexp.MatchString(`(`, b)",               // does not compile: left alone
		"\tfooInputPattern0 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^a$`) })\n" +
			"\tfooInputPattern1 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^b+$`) })\n)\n",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, got)
		}
	}
}

// TestGenCompilesNoPatternAtStart reads every generated file: a pattern
// compiled at package init would cost every process's start (a pane's tap
// included) again.
func TestGenCompilesNoPatternAtStart(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "*.gen.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated files: %v", err)
	}
	lazy := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if !strings.Contains(line, "regexp.MustCompile(") {
				continue
			}
			if !strings.Contains(line, "sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(") {
				t.Errorf("%s:%d compiles a pattern when the package starts: %s", f, i+1, strings.TrimSpace(line))
			}
			lazy++
		}
	}
	if lazy == 0 {
		t.Fatal("no pattern found in gen/: the check reads the wrong files")
	}
}
