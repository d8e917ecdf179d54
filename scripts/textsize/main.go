// Textsize prints, per tool, how many characters of text the results in
// the testscript goldens carry: the text blocks a model reads, where a
// golden's renderedText stands for the rendering of its structuredContent
// (tools.RenderResult). Run it before and after a change to descriptions
// or rendering to see what the change costs or saves; it asserts nothing.
//
// Usage (from the module root):
//
//	go run ./scripts/textsize [testdata/script]
//
// A reply is matched to its call through the script's "stdin X" and the
// "cmp stdout Y" that follows it; scrubbed values (PID, TIME) count as
// their placeholder.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

func main() {
	dir := filepath.Join("testdata", "script")
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		fmt.Fprintln(os.Stderr, "textsize: no goldens in", dir)
		os.Exit(2)
	}
	type tally struct{ results, chars int }
	per := map[string]*tally{}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "textsize:", err)
			os.Exit(1)
		}
		for tool, chars := range results(a) {
			for _, n := range chars {
				if per[tool] == nil {
					per[tool] = &tally{}
				}
				per[tool].results++
				per[tool].chars += n
			}
		}
	}
	names := make([]string, 0, len(per))
	for name := range per {
		names = append(names, name)
	}
	slices.Sort(names)
	var all tally
	fmt.Printf("%-24s %7s %7s %6s\n", "tool", "results", "chars", "mean")
	for _, name := range names {
		t := per[name]
		fmt.Printf("%-24s %7d %7d %6d\n", name, t.results, t.chars, t.chars/t.results)
		all.results += t.results
		all.chars += t.chars
	}
	fmt.Printf("%-24s %7d %7d %6d\n", "total", all.results, all.chars, all.chars/max(all.results, 1))
}

var (
	stdinCmd = regexp.MustCompile(`^stdin\s+(\S+)`)
	cmpCmd   = regexp.MustCompile(`^cmp\s+stdout\s+(\S+)`)
	bareWord = regexp.MustCompile(`:([A-Z][A-Z_]*)([,}\]])`)
)

// results returns, per tool, the text characters of each successful or
// failed tools/call reply in the archive's goldens.
func results(a *txtar.Archive) map[string][]int {
	sections := map[string][]byte{}
	for _, f := range a.Files {
		sections[f.Name] = f.Data
	}
	// Which calls each golden answers.
	wantOf := map[string]string{}
	var stdin string
	for _, line := range strings.Split(string(a.Comment), "\n") {
		line = strings.TrimSpace(line)
		if m := stdinCmd.FindStringSubmatch(line); m != nil {
			stdin = m[1]
		} else if m := cmpCmd.FindStringSubmatch(line); m != nil && stdin != "" {
			wantOf[m[1]] = stdin
		}
	}
	out := map[string][]int{}
	for want, calls := range wantOf {
		tools := callTools(sections[calls])
		for _, reply := range replies(sections[want]) {
			tool, ok := tools[string(reply.ID)]
			if !ok || reply.Result == nil {
				continue
			}
			out[tool] = append(out[tool], textChars(reply.Result))
		}
	}
	return out
}

// callTools maps request ids to the tools they call.
func callTools(calls []byte) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(string(calls), "\n") {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(line), &req) == nil && req.Method == "tools/call" {
			m[string(req.ID)] = req.Params.Name
		}
	}
	return m
}

type reply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
	} `json:"result"`
}

// replies reads a golden: one reply a line, except that a structured
// content spreads over several, so lines are joined until they parse.
func replies(golden []byte) []reply {
	var out []reply
	var pending strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(golden))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "|") || strings.HasPrefix(line, "text ") && pending.Len() == 0 {
			continue // a -text rendering of the reply above
		}
		pending.WriteString(line)
		candidate := bareWord.ReplaceAllString(pending.String(), `:"$1"$2`)
		var r reply
		d := json.NewDecoder(strings.NewReader(candidate))
		d.UseNumber()
		if d.Decode(&r) == nil {
			out = append(out, r)
			pending.Reset()
		}
	}
	return out
}

func textChars(r *struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Structured map[string]any `json:"structuredContent"`
}) int {
	n := 0
	for _, c := range r.Content {
		if c.Type != "text" {
			continue
		}
		text := c.Text
		if text == "renderedText" && r.Structured != nil {
			text = tools.RenderResult(r.Structured)
		}
		n += utf8.RuneCountInString(text)
	}
	return n
}
