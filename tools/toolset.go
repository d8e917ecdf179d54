package tools

import (
	"fmt"
	"slices"
	"strings"
)

// A Toolset is a named group of catalogue tools that --toolsets turns on
// as one. The groups follow the catalogue's families; every entry names
// its own.
type Toolset int

const (
	_       Toolset = iota
	Default         // the everyday jobs: run, type, read, wait, find and make panes
	Inspect         // describe the server, a session, window or pane; batches of reads
	Arrange         // select, lay out, resize, move, rename, respawn and clear
	Config          // tmux options, environment and hooks
	Buffers         // paste buffers
)

// toolsetNames are the --toolsets spellings, in the order --help and the
// README give them.
var toolsetNames = []struct {
	set  Toolset
	name string
}{{Default, "default"}, {Inspect, "inspect"}, {Arrange, "arrange"}, {Config, "config"}, {Buffers, "buffers"}}

// String is the --toolsets spelling of s.
func (s Toolset) String() string {
	for _, n := range toolsetNames {
		if n.set == s {
			return n.name
		}
	}
	return fmt.Sprintf("Toolset(%d)", int(s))
}

// ToolsetNames lists every toolset's --toolsets name, then "all".
func ToolsetNames() []string {
	var names []string
	for _, n := range toolsetNames {
		names = append(names, n.name)
	}
	return append(names, "all")
}

// A Selection is the tools a server offers before the safety tier filters
// them: whole toolsets, plus single tools. The zero Selection offers the
// default toolset.
type Selection struct {
	sets  []Toolset
	tools []string
}

// All selects every toolset.
var All = Selection{sets: []Toolset{Default, Inspect, Arrange, Config, Buffers}}

// ParseSelection reads --toolsets (comma-separated toolset names, "all"
// or "default"; empty means default) and --tools (comma-separated tool
// names). An unknown name is an error that lists the valid ones.
func ParseSelection(toolsets, names string) (Selection, error) {
	var sel Selection
	for _, word := range splitList(toolsets) {
		if word == "all" {
			for _, s := range All.sets {
				sel.sets = appendNew(sel.sets, s)
			}
			continue
		}
		i := slices.IndexFunc(toolsetNames, func(n struct {
			set  Toolset
			name string
		}) bool {
			return n.name == word
		})
		if i < 0 {
			return Selection{}, fmt.Errorf("unknown toolset %q in --toolsets; valid: %s", word, strings.Join(ToolsetNames(), ", "))
		}
		sel.sets = appendNew(sel.sets, toolsetNames[i].set)
	}
	if len(sel.sets) == 0 {
		sel.sets = []Toolset{Default}
	}
	for _, word := range splitList(names) {
		if _, ok := lookup(word); !ok {
			return Selection{}, fmt.Errorf("unknown tool %q in --tools; valid: %s", word, strings.Join(catalogueNames(), ", "))
		}
		sel.tools = appendNew(sel.tools, word)
	}
	return sel, nil
}

// Offers reports whether the selection includes t.
func (sel Selection) Offers(t Tool) bool {
	sets := sel.sets
	if len(sets) == 0 {
		sets = []Toolset{Default}
	}
	return slices.Contains(sets, t.Toolset) || slices.Contains(sel.tools, t.Name)
}

// flagValue is the --toolsets value that adds set to the selection.
// WithTool is sel with the tool name added, as --tools adds it.
func (sel Selection) WithTool(name string) Selection {
	sel.tools = appendNew(slices.Clone(sel.tools), name)
	return sel
}

// String is sel as flags would give it: "--toolsets default",
// "--toolsets default,arrange --tools get_pane_info".
func (sel Selection) String() string {
	toolsets, names := sel.Flags()
	out := "--toolsets " + toolsets
	if names != "" {
		out += " --tools " + names
	}
	return out
}

// Flags is sel as the values of --toolsets and --tools.
func (sel Selection) Flags() (toolsets, names string) {
	sets := sel.sets
	if len(sets) == 0 {
		sets = []Toolset{Default}
	}
	var words []string
	for _, s := range sets {
		words = append(words, s.String())
	}
	return strings.Join(words, ","), strings.Join(sel.tools, ",")
}

func (sel Selection) flagValue(set Toolset) string {
	sets := sel.sets
	if len(sets) == 0 {
		sets = []Toolset{Default}
	}
	var names []string
	for _, s := range append(slices.Clone(sets), set) {
		names = appendNew(names, s.String())
	}
	return strings.Join(names, ",")
}

func splitList(s string) []string {
	var words []string
	for _, w := range strings.Split(s, ",") {
		if w = strings.TrimSpace(strings.ToLower(w)); w != "" {
			words = append(words, w)
		}
	}
	return words
}

func appendNew[T comparable](list []T, v T) []T {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

func lookup(name string) (Tool, bool) {
	for _, t := range Catalogue {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

func catalogueNames() []string {
	var names []string
	for _, t := range Catalogue {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	return names
}

// ToolsetTable describes each toolset and its tools, for --help.
func ToolsetTable() string {
	var b strings.Builder
	for _, n := range toolsetNames {
		var names []string
		for _, t := range Catalogue {
			if t.Toolset == n.set {
				names = append(names, t.Name)
			}
		}
		fmt.Fprintf(&b, "  %-8s %s\n", n.name, strings.Join(names, " "))
	}
	return b.String()
}
