package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// TestNoCallerStringIsExpanded walks every string field of every tool's
// input schema — read from schemas/, so a new tool or field is covered
// without touching this test — and calls the tool with each hostile value
// in that field, the other fields valid. A call may fail (the value may
// not validate); what must never happen is tmux running or expanding it:
// the marker file that "#(touch marker)" would create must never appear.
// Where a tool stores the string (option and environment values, buffer
// names and text, names and titles), the stored value must be exactly the
// one sent.
func TestNoCallerStringIsExpanded(t *testing.T) {
	if testing.Short() {
		t.Skip("calls every tool many times")
	}
	sock := tmuxtest.Server(t)
	marker := filepath.Join(t.TempDir(), "marker")
	hostile := []string{
		"#(touch " + marker + ")",
		"#{pane_id}",
		";",
		`\;`,
		"a\nb",
		`'"`,
		"%",
		"x #(touch " + marker + ") ; \\; #{session_name} %0 'q' \"d\"\n",
	}
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs := connect(t, client, tools.Destructive)
	served := map[string]bool{}
	for _, tool := range tools.Catalogue {
		served[tool.Name] = true
	}
	for _, name := range schemas.Tools() {
		if !served[name] {
			continue
		}
		var root node
		if err := json.Unmarshal(schemas.Input(name), &root); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fields, accepted := stringFields(root, nil), 0
		for _, field := range fields {
			// A fresh target for each field: a call may respawn, kill or
			// rename what it was given.
			ids := newTarget(t, sock)
			for _, value := range hostile {
				args := baseArgs(name, root, ids)
				setPath(args, field, value, ids)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
				if err != nil {
					t.Fatalf("%s %s: %v", name, field, err)
				}
				if _, err := os.Stat(marker); err == nil {
					t.Fatalf("%s: %s = %q ran a command through tmux (the marker file appeared)", name, field, value)
				}
				if !res.IsError {
					accepted++
					checkStored(t, sock, name, field, args, value)
				}
			}
			// A call may have killed or moved the session already.
			exec.Command(tmuxtest.Binary(), "-S", sock, "kill-session", "-t", ids.session).Run()
		}
		t.Logf("%s: %d string fields, %d of %d calls accepted", name, len(fields), accepted, len(fields)*len(hostile))
	}
	// tmux runs #() jobs in the background: by now, one started early on
	// has long finished.
	tmuxtest.Run(t, sock, "run-shell", "true")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the marker file appeared: a hostile value was run through tmux")
	}
}

// A node is a JSON schema, as decoded.
type node = map[string]any

// A step is one step of a path to a string field: a property name, an
// array element (index 0) or a map value (key "A") or key.
type step struct {
	key    string
	index  bool // an array element
	mapKey bool // the key of a map entry, rather than its value
	schema node // the schema of what this step leads to
}

type fieldPath []step

func (p fieldPath) String() string {
	var parts []string
	for _, s := range p {
		switch {
		case s.index:
			parts = append(parts, "[0]")
		case s.mapKey:
			parts = append(parts, "{key}")
		default:
			parts = append(parts, "."+s.key)
		}
	}
	return strings.TrimPrefix(strings.Join(parts, ""), ".")
}

// stringFields returns the path to every string that s can hold.
func stringFields(s node, prefix fieldPath) []fieldPath {
	var out []fieldPath
	for _, alt := range alternatives(s) {
		switch kind(alt) {
		case "string":
			out = append(out, append(fieldPath{}, prefix...))
		case "array":
			if items, ok := alt["items"].(node); ok {
				out = append(out, stringFields(items, append(append(fieldPath{}, prefix...), step{index: true, schema: items}))...)
			}
		case "object":
			props, _ := alt["properties"].(node)
			for _, k := range sortedKeys(props) {
				sub := props[k].(node)
				out = append(out, stringFields(sub, append(append(fieldPath{}, prefix...), step{key: k, schema: sub}))...)
			}
			if extra, ok := alt["additionalProperties"].(node); ok {
				base := append(fieldPath{}, prefix...)
				out = append(out, append(base, step{mapKey: true, schema: node{"type": "string"}}))
				out = append(out, stringFields(extra, append(append(fieldPath{}, prefix...), step{key: "A", schema: extra}))...)
			}
		}
	}
	return out
}

// alternatives returns the non-null schemas s allows (anyOf, oneOf or s).
func alternatives(s node) []node {
	var alts []node
	for _, k := range []string{"anyOf", "oneOf"} {
		if list, ok := s[k].([]any); ok {
			for _, a := range list {
				if an, ok := a.(node); ok && kind(an) != "null" {
					alts = append(alts, an)
				}
			}
		}
	}
	if len(alts) == 0 {
		alts = []node{s}
	}
	return alts
}

// kind is s's type, the first that is not null.
func kind(s node) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, v := range t {
			if v != "null" {
				return v.(string)
			}
		}
	}
	return ""
}

// ids name the walker's target for one field: a session with one window
// whose pane runs cat, so text typed into it runs nothing.
type ids struct{ session, window, pane string }

func newTarget(t *testing.T, sock string) ids {
	out := tmuxtest.Run(t, sock, "new-session", "-d", "-P", "-F", "#{session_id} #{window_id} #{pane_id}", "cat")
	f := strings.Fields(out)
	if len(f) != 3 {
		t.Fatalf("new-session printed %q", out)
	}
	return ids{session: f[0], window: f[1], pane: f[2]}
}

// overrides make a tool's call one that stores what it is given where the
// walker can read it back: a user option, a variable of our own, a buffer.
var overrides = map[string]map[string]any{
	"set_option":      {"scope": "session", "targetId": "$SESSION", "name": "@walker"},
	"show_option":     {"scope": "session", "targetId": "$SESSION"},
	"set_environment": {"name": "TMUX_MCP_WALKER"},
	"load_buffer":     {"name": "walker", "text": "x"},
	// Typing into the walker's cat pane runs nothing: force lets it.
	"run_shell_command": {"force": true},
}

// baseArgs returns valid arguments for tool: its required fields, a short
// wait for every wait, and the tool's overrides.
func baseArgs(tool string, root node, id ids) map[string]any {
	args := map[string]any{}
	props, _ := root["properties"].(node)
	required := map[string]bool{}
	for _, r := range listOf(root["required"]) {
		required[r] = true
	}
	for _, k := range sortedKeys(props) {
		sub := props[k].(node)
		if required[k] || isWait(k) {
			args[k] = sample(k, sub, id)
		}
	}
	for k, v := range overrides[tool] {
		if s, ok := v.(string); ok && s == "$SESSION" {
			v = id.session
		}
		args[k] = v
	}
	return args
}

func isWait(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "timeout") || strings.HasSuffix(name, "Ms")
}

// sample returns a valid value for a field named name with schema s.
func sample(name string, s node, id ids) any {
	if def, ok := s["default"]; ok && !isWait(name) {
		return def
	}
	alt := alternatives(s)[0]
	if enum, ok := alt["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	switch kind(alt) {
	case "string":
		return sampleString(name, alt, id)
	case "integer", "number":
		v := 1.0
		if isWait(name) {
			v = 200
			if kind(alt) == "number" {
				v = 0.2 // seconds
			}
		}
		if m, ok := alt["minimum"].(float64); ok && v < m {
			v = m
		}
		if m, ok := alt["maximum"].(float64); ok && v > m {
			v = m
		}
		return v
	case "boolean":
		return false
	case "array":
		items, _ := alt["items"].(node)
		if strings.EqualFold(name, "argv") {
			return []any{"true"}
		}
		return []any{sample(name, items, id)}
	case "object":
		obj := map[string]any{}
		props, _ := alt["properties"].(node)
		for _, r := range listOf(alt["required"]) {
			obj[r] = sample(r, props[r].(node), id)
		}
		return obj
	}
	return nil
}

func sampleString(name string, s node, id ids) string {
	candidates := []string{"x", "X", "@x", "ch", "x.y"}
	switch l := strings.ToLower(name); {
	case strings.Contains(l, "pane"):
		candidates = append([]string{id.pane}, candidates...)
	case strings.Contains(l, "window"):
		candidates = append([]string{id.window}, candidates...)
	case strings.Contains(l, "session"), strings.Contains(l, "target"):
		candidates = append([]string{id.session}, candidates...)
	}
	pattern, _ := s["pattern"].(string)
	re, err := regexp.Compile(pattern)
	if err != nil {
		return candidates[0]
	}
	for _, c := range candidates {
		if re.MatchString(c) {
			return c
		}
	}
	return candidates[0]
}

// setPath puts value at path p in args, making the containers on the way.
func setPath(args map[string]any, p fieldPath, value string, id ids) {
	var cur any = args
	for i, s := range p {
		last := i == len(p)-1
		switch c := cur.(type) {
		case map[string]any:
			if s.mapKey {
				delete(c, "A")
				c[value] = "x"
				return
			}
			if s.index {
				panic("index step in an object")
			}
			if last {
				c[s.key] = value
				return
			}
			next := p[i+1]
			child, ok := c[s.key]
			if !ok || !fits(child, next) {
				child = container(s.key, next, id)
				c[s.key] = child
			}
			cur = child
		case []any:
			if last {
				c[0] = value
				return
			}
			next := p[i+1]
			if !fits(c[0], next) {
				c[0] = container("", next, id)
			}
			cur = c[0]
		}
	}
}

// fits reports whether v is the kind of container step s needs.
func fits(v any, s step) bool {
	switch v.(type) {
	case []any:
		return s.index
	case map[string]any:
		return !s.index
	}
	return false
}

// container makes a valid container of the kind the next step needs.
func container(name string, next step, id ids) any {
	if next.index {
		return []any{sample(name, next.schema, id)}
	}
	if next.mapKey || next.key == "A" {
		return map[string]any{"A": "x"}
	}
	return map[string]any{}
}

// A readBack reads a stored string back from tmux, exactly.
type readBack struct {
	field string // the field whose value is stored
	argv  func(args map[string]any) []string
	want  func(args map[string]any, value string) string // what tmux prints
}

func line(_ map[string]any, v string) string { return v + "\n" }

// stored says, for tools that store a string, where to read it back.
// Tools that do not exist (yet) are skipped.
var stored = map[string][]readBack{
	"set_option": {{field: "value", want: line, argv: func(a map[string]any) []string {
		return []string{"show-options", "-v", "-t", fmt.Sprint(a["targetId"]), "@walker"}
	}}},
	"set_environment": {{field: "value", want: func(_ map[string]any, v string) string { return "TMUX_MCP_WALKER=" + v + "\n" },
		argv: func(a map[string]any) []string { return []string{"show-environment", "-g", "TMUX_MCP_WALKER"} }}},
	"load_buffer": {
		{field: "text", want: func(_ map[string]any, v string) string { return v },
			argv: func(a map[string]any) []string { return []string{"save-buffer", "-b", fmt.Sprint(a["name"]), "-"} }},
		{field: "name", want: func(_ map[string]any, _ string) string { return "x" },
			argv: func(a map[string]any) []string { return []string{"save-buffer", "-b", fmt.Sprint(a["name"]), "-"} }},
	},
	"rename_session": {{field: "name", want: line, argv: func(a map[string]any) []string {
		return []string{"display-message", "-p", "-t", fmt.Sprint(a["sessionId"]), "#{session_name}"}
	}}},
	"rename_window": {{field: "name", want: line, argv: func(a map[string]any) []string {
		return []string{"display-message", "-p", "-t", fmt.Sprint(a["windowId"]), "#{window_name}"}
	}}},
	"set_pane_title": {{field: "title", want: line, argv: func(a map[string]any) []string {
		return []string{"display-message", "-p", "-t", fmt.Sprint(a["paneId"]), "#{pane_title}"}
	}}},
}

// checkStored checks that a tool that stores field stored value exactly.
func checkStored(t *testing.T, sock, tool string, field fieldPath, args map[string]any, value string) {
	t.Helper()
	for _, r := range stored[tool] {
		if field.String() != r.field {
			continue
		}
		argv := r.argv(args)
		for i, a := range argv {
			if strings.HasSuffix(a, ";") { // tmux would read it as a command separator
				argv[i] = a[:len(a)-1] + `\;`
			}
		}
		got, want := tmuxtest.Run(t, sock, argv...), r.want(args, value)
		if got != want {
			t.Errorf("%s: %s = %q: tmux holds %q, want %q", tool, field, value, got, want)
		}
	}
}

func listOf(v any) []string {
	var out []string
	if l, ok := v.([]any); ok {
		for _, s := range l {
			out = append(out, fmt.Sprint(s))
		}
	}
	return out
}

func sortedKeys(m node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
