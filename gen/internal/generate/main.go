// Command generate writes gen/ from schemas/: for every schema file
// schemas/<tool>.<input|output>.json it runs go-jsonschema (pinned as a
// go.mod tool) into gen/<tool>_<input|output>.gen.go, with the root type
// named <Tool><Input|Output> (the seed schemas have no title to name it
// by). Adding a tool is then two schema files and `go generate ./...`.
//
// The output file names use "_" where the schema names use ".": a dot
// right after "list_windows" would make Go read "_windows" as a GOOS build
// constraint. Run from the module root (go generate does).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run() error {
	schemas, err := filepath.Glob(filepath.Join("schemas", "*.json"))
	if err != nil || len(schemas) == 0 {
		return fmt.Errorf("no schemas/*.json here (run from the module root): %v", err)
	}
	want := map[string]bool{}
	for _, schema := range schemas {
		tool, kind, ok := strings.Cut(strings.TrimSuffix(filepath.Base(schema), ".json"), ".")
		if !ok || (kind != "input" && kind != "output") {
			return fmt.Errorf("%s: want <tool>.input.json or <tool>.output.json", schema)
		}
		out := filepath.Join("gen", tool+"_"+kind+".gen.go")
		want[out] = true
		cmd := exec.Command("go", "tool", "go-jsonschema", "-p", "gen", "--struct-name-from-title",
			"--tags", "json", "--capitalization", "ID",
			"--schema-root-type", "="+camel(tool)+camel(kind), "-o", out, schema)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", schema, err)
		}
		if err := compilePatternsOnce(out, camel(tool)+camel(kind)); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
	}
	// A schema that was removed takes its generated file with it.
	old, _ := filepath.Glob(filepath.Join("gen", "*.gen.go"))
	for _, f := range old {
		if !want[f] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// camel turns "list_panes" into "ListPanes".
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// matchCall is how go-jsonschema checks a "pattern": regexp.MatchString
// with the pattern as a raw string literal, which compiles the pattern
// again on every value decoded (about 13 µs each, on every tool call).
var matchCall = regexp.MustCompile("matched, _ := regexp\\.MatchString\\((`[^`]*`), ")

// compilePatternsOnce rewrites the generated file so that each pattern is
// compiled once, on its first use, into a package variable named after the
// file's root type, and matched with that: the same regexp, the same check,
// the same error text (which quotes the pattern from its own literal).
// Compiling all of them when the package starts took 2–3 ms of every
// process's start, a pane's tap included, whose path never decodes a tool
// call.
func compilePatternsOnce(file, root string) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var decls []string
	seen := map[string]string{}
	out := matchCall.ReplaceAllStringFunc(string(src), func(call string) string {
		lit := matchCall.FindStringSubmatch(call)[1]
		pattern, err := strconv.Unquote(lit)
		if err == nil {
			_, err = regexp.Compile(pattern)
		}
		if err != nil {
			return call // left to fail at run time, as go-jsonschema wrote it
		}
		name, ok := seen[lit]
		if !ok {
			name = fmt.Sprintf("%sPattern%d", lowerFirst(root), len(seen))
			seen[lit] = name
			decls = append(decls, fmt.Sprintf("\t%s = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(%s) })\n", name, lit))
		}
		return "matched := " + name + "().MatchString("
	})
	if len(decls) == 0 {
		return nil
	}
	if !strings.Contains(out, regexpImport) {
		return fmt.Errorf("no %q line to add sync's after", regexpImport)
	}
	out = strings.Replace(out, regexpImport, regexpImport+"import \"sync\"\n", 1)
	out += "\n// The schema's patterns, each compiled on its first use (see gen/internal/generate).\nvar (\n" + strings.Join(decls, "") + ")\n"
	return os.WriteFile(file, []byte(out), 0o644)
}

// regexpImport is how go-jsonschema imports regexp, which a file with a
// pattern always does.
const regexpImport = "import \"regexp\"\n"

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }
