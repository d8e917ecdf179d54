package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/schemas"
)

// toolsetSummaries say in a line what each toolset is for, in TOOLS.md.
var toolsetSummaries = map[Toolset]string{
	Default: "The everyday jobs: run, type, read, wait, find and make panes, and the four seed tools.",
	Inspect: "Describe the server, a session, a window or a pane; batches of reads.",
	Arrange: "Select, lay out, resize, move, rename, respawn and clear.",
	Config:  "tmux options, environment and hooks.",
	Buffers: "Paste buffers.",
}

// toolNotes are the bullets of the "Tool notes" section of
// docs/how-it-works.md that name a tool, by the bullet's bold lead, in the
// order written there. TestToolNotesMatchDocs keeps this equal to it.
var toolNotes = map[string][]string{
	"run_shell_command": {"`run_shell_command`", "Long output"},
	"wait_for_command":  {"Long output"},
	"run_program":       {"Long output", "`start_program`/`run_program`"},
	"wait_for_text":     {"`wait_for_text`"},
	"wait_for_quiet":    {"`wait_for_quiet`"},
	"wait_for_input":    {"`wait_for_input`"},
	"capture_since":     {"`capture_since`"},
	"create_session":    {"Making panes"},
	"create_window":     {"Making panes"},
	"split_window":      {"Making panes"},
	"start_program":     {"`start_program`/`run_program`"},
	"wait_for_exit":     {"`wait_for_exit`"},
	"wait_for_channel":  {"`wait_for_channel`"},
	"send_keys":         {"`send_keys`"},
	"paste_text":        {"`paste_text`"},
	"rename_session":    {"Names and titles"},
	"rename_window":     {"Names and titles"},
	"set_pane_title":    {"Names and titles"},
	"break_pane":        {"Names and titles"},
	"set_option":        {"`set_option`"},
	"search_panes":      {"`search_panes`"},
}

// WriteToolsMarkdown writes docs/tools.md: every catalogue tool grouped by
// toolset, with its tier, description, inputs and outcomes, read from the
// catalogue and the tool's schema files. go generate runs it (scripts/docgen).
func WriteToolsMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("<!-- Written by go generate (scripts/docgen) from the catalogue (tools/catalogue.go) and schemas/; do not edit. -->\n\n")
	b.WriteString("# tmux-mcp tools\n\n")
	fmt.Fprintf(&b, "Every tool tmux-mcp offers, %d in %d toolsets: what it is for, what it takes and what it answers. "+
		"Inputs and outputs are the tool's schema files (`schemas/<tool>.input.json`, `schemas/<tool>.output.json`), "+
		"which clients receive as they are. The [Tool notes](how-it-works.md#tool-notes) hold the edge cases the "+
		"descriptions leave out; a tool links there when it has one.\n\n", len(Catalogue), len(toolsetNames))

	b.WriteString("## Contents\n\n- [Enabling toolsets](#enabling-toolsets)\n- [All tools](#all-tools)\n")
	for _, n := range toolsetNames {
		var links []string
		for _, t := range Catalogue {
			if t.Toolset == n.set {
				links = append(links, fmt.Sprintf("[%s](#%s)", t.Name, t.Name))
			}
		}
		fmt.Fprintf(&b, "- [Toolset `%s`](#toolset-%s) (%d): %s\n", n.name, n.name, len(links), strings.Join(links, " · "))
	}
	b.WriteString("\n")
	writeEnabling(&b)
	b.WriteString("## All tools\n\n")
	b.WriteString(toolTable())
	b.WriteString("\n")

	for _, n := range toolsetNames {
		summary, ok := toolsetSummaries[n.set]
		if !ok {
			return fmt.Errorf("toolset %s has no summary in toolsetSummaries", n.name)
		}
		fmt.Fprintf(&b, "## Toolset `%s`\n\n%s\n\n", n.name, summary)
		for _, t := range Catalogue {
			if t.Toolset != n.set {
				continue
			}
			if err := writeTool(&b, t); err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
		}
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

// writeEnabling says how to turn toolsets and tiers on, in the words of
// "Choosing toolsets" in docs/usage.md; the refusal shown is the server's own.
func writeEnabling(b *strings.Builder) {
	tier, _ := ParseTier("")
	example, _ := lookup("swap_pane")
	b.WriteString("## Enabling toolsets\n\n")
	fmt.Fprintf(b, "Every tool belongs to one toolset; the server lists the tools of the toolsets it was started with, "+
		"and the safety tier still filters those. Started with no flags, it offers the `%s` toolset at tier `%s`. "+
		"Every flag has an environment twin; a flag wins over its twin.\n\n", Default, TierName(tier))
	b.WriteString("- `--toolsets default,arrange` (`TMUX_MCP_TOOLSETS`) adds a whole family; `--toolsets all` offers every tool.\n")
	b.WriteString("- `--tools swap_pane,get_pane_info` (`TMUX_MCP_TOOLS`) adds single tools to the toolsets.\n")
	fmt.Fprintf(b, "- `--safety` (`TMUX_MCP_SAFETY`) is the tier: `%s` offers only the read-only tools, `%s` (the default) "+
		"adds those that change state, `%s` adds those that kill, clear or respawn and may lose work.\n",
		TierName(ReadOnly), TierName(Mutating), TierName(Destructive))
	fmt.Fprintf(b, "- A call to a tool the server was not started with is refused with the flag value that offers it: `%s`.\n",
		refusal(example, tier, Selection{}))
	b.WriteString("- `tmux-mcp --help` lists the toolsets and their tools; [Choosing toolsets](usage.md#choosing-toolsets) says more.\n\n")
}

// docTableBegin opens a generated table in a hand-written document; the
// table runs to <!-- NAME:end -->.
var docTableBegin = regexp.MustCompile(`<!-- ([a-z-]+):begin \(written by go generate\) -->\n`)

// FillDocTables returns doc with every generated table in it brought up to
// date: the text between "<!-- NAME:begin (written by go generate) -->" and
// "<!-- NAME:end -->" becomes the table NAME. The one table there is is
// toolsets: each toolset and its tools. (Each tool in a line is a table of
// docs/tools.md, whose links lead into that file.) go generate runs it on
// README.md and docs/*.md (scripts/docgen).
func FillDocTables(doc string) (string, error) {
	tables := map[string]func() string{"toolsets": toolsetTable}
	var b strings.Builder
	for {
		at := docTableBegin.FindStringSubmatchIndex(doc)
		if at == nil {
			b.WriteString(doc)
			return b.String(), nil
		}
		name := doc[at[2]:at[3]]
		table, ok := tables[name]
		if !ok {
			return "", fmt.Errorf("no generated table is named %q: the one there is is toolsets", name)
		}
		end := "<!-- " + name + ":end -->"
		n := strings.Index(doc[at[1]:], end)
		if n < 0 {
			return "", fmt.Errorf("the table %s has no %s", name, end)
		}
		b.WriteString(doc[:at[1]])
		b.WriteString(table())
		b.WriteString(end)
		doc = doc[at[1]+n+len(end):]
	}
}

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

// toolTable renders the catalogue as a Markdown table for docs/tools.md:
// each tool, linked to its section, with the first sentence of its
// description, its toolset and its tier.
func toolTable() string {
	var b strings.Builder
	b.WriteString("| tool | what it does | toolset | safety |\n| --- | --- | --- | --- |\n")
	for _, t := range Catalogue {
		first, _, _ := strings.Cut(t.Description, ". ")
		first = strings.ReplaceAll(strings.TrimSuffix(first, "."), "|", "\\|")
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s. | %s | %s |\n", t.Name, t.Name, first, t.Toolset, className(t.Class))
	}
	return b.String()
}

func className(c Class) string {
	return map[Class]string{ReadOnly: "read-only", Idempotent: "idempotent", Mutating: "mutating", Destructive: "destructive"}[c]
}

func writeTool(b *strings.Builder, t Tool) error {
	in, err := parseDocSchema(schemas.Input(t.Name))
	if err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	out, err := parseDocSchema(schemas.Output(t.Name))
	if err != nil {
		return fmt.Errorf("output schema: %w", err)
	}
	tier := "`" + TierName(t.Class) + "`"
	if t.Class == Idempotent {
		tier += " (idempotent)"
	}
	fmt.Fprintf(b, "### %s\n\n*%s* — toolset `%s`, tier %s.", t.Name, t.Title, t.Toolset, tier)
	if notes := toolNotes[t.Name]; len(notes) > 0 {
		fmt.Fprintf(b, " More in the [Tool notes](how-it-works.md#tool-notes): %s.", strings.Join(notes, "; "))
	}
	fmt.Fprintf(b, "\n\n%s\n\n", oneLine(t.Description))

	rows := inputRows(in, "")
	if len(rows) == 0 {
		b.WriteString("**Inputs:** none.\n\n")
	} else {
		b.WriteString("**Inputs**\n\n| field | type | required or default | description |\n| --- | --- | --- | --- |\n")
		for _, r := range rows {
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", r.name, r.typ, tableCell(r.need), tableCell(r.about))
		}
		b.WriteString("\n")
	}

	if o := out.Properties["outcome"]; o != nil {
		writeOutcomes(b, o)
	}
	names := slices.Sorted(maps.Keys(out.Properties))
	for _, n := range names {
		if values := enumOf(out.Properties[n]); n != "outcome" && len(values) > 0 {
			fmt.Fprintf(b, "**`%s`** is one of %s.", n, quoteAll(values))
			if d := oneLine(out.Properties[n].Description); d != "" {
				fmt.Fprintf(b, " %s", d)
			}
			b.WriteString("\n\n")
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(b, "**Output fields:** %s.\n\n", quoteAll(names))
	}
	return nil
}

// writeOutcomes lists the values of the output's outcome field, each with
// its meaning where the field's description gives one as "value: …".
func writeOutcomes(b *strings.Builder, o *docSchema) {
	values := enumOf(o)
	if len(values) == 0 {
		return
	}
	intro, meanings := splitMeanings(oneLine(o.Description), values)
	b.WriteString("**Outcomes** (`outcome`):")
	if meanings == nil {
		fmt.Fprintf(b, " %s.", quoteAll(values))
		if intro != "" {
			fmt.Fprintf(b, " %s", intro)
		}
		b.WriteString("\n\n")
		return
	}
	if intro != "" {
		fmt.Fprintf(b, " %s", intro)
	}
	b.WriteString("\n\n")
	for _, v := range values {
		fmt.Fprintf(b, "- `%s`: %s\n", v, meanings[v])
	}
	b.WriteString("\n")
}

// splitMeanings reads a description of the form "a: means this. b: means
// that." into each value's meaning. If any value has none, meanings is nil
// and intro is the whole description.
func splitMeanings(desc string, values []string) (intro string, meanings map[string]string) {
	type at struct {
		value string
		pos   int
	}
	var found []at
	for _, v := range values {
		i := strings.Index(desc, v+": ")
		for i > 0 && !strings.HasSuffix(desc[:i], ". ") {
			j := strings.Index(desc[i+1:], v+": ")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			return desc, nil
		}
		found = append(found, at{v, i})
	}
	slices.SortFunc(found, func(a, b at) int { return a.pos - b.pos })
	meanings = map[string]string{}
	for k, f := range found {
		end := len(desc)
		if k+1 < len(found) {
			end = found[k+1].pos
		}
		meanings[f.value] = strings.TrimSpace(desc[f.pos+len(f.value)+2 : end])
	}
	return strings.TrimSpace(desc[:found[0].pos]), meanings
}

// A docSchema is the part of JSON Schema the tool schemas use.
type docSchema struct {
	Type                 json.RawMessage       `json:"type"` // a name or a list of names
	Description          string                `json:"description"`
	Enum                 []json.RawMessage     `json:"enum"`
	Default              json.RawMessage       `json:"default"`
	Properties           map[string]*docSchema `json:"properties"`
	Required             []string              `json:"required"`
	Items                *docSchema            `json:"items"`
	AnyOf                []*docSchema          `json:"anyOf"`
	Pattern              string                `json:"pattern"`
	Minimum              *json.Number          `json:"minimum"`
	Maximum              *json.Number          `json:"maximum"`
	ExclusiveMinimum     *json.Number          `json:"exclusiveMinimum"`
	MinLength            *int                  `json:"minLength"`
	MaxLength            *int                  `json:"maxLength"`
	MinItems             *int                  `json:"minItems"`
	MaxItems             *int                  `json:"maxItems"`
	MinProperties        *int                  `json:"minProperties"`
	MaxProperties        *int                  `json:"maxProperties"`
	PropertyNames        *docSchema            `json:"propertyNames"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"` // false, or the values' schema
}

func parseDocSchema(data []byte) (*docSchema, error) {
	var s docSchema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *docSchema) types() []string {
	var one string
	if json.Unmarshal(s.Type, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(s.Type, &many) == nil && len(many) > 0 {
		return many
	}
	for _, alt := range s.AnyOf {
		for _, t := range alt.types() {
			many = appendNew(many, t)
		}
	}
	return many
}

// typeName is a field's type in words: "integer", "string or null",
// "array of string", "object of string".
func (s *docSchema) typeName() string {
	var names []string
	for _, t := range s.types() {
		switch {
		case t == "array" && s.Items != nil:
			item := strings.Join(s.Items.types(), " or ")
			if item == "object" {
				item = "objects"
			}
			t = "array of " + item
		case t == "object" && len(s.AdditionalProperties) > 0 && s.AdditionalProperties[0] == '{':
			var values docSchema
			if json.Unmarshal(s.AdditionalProperties, &values) == nil && len(values.types()) > 0 {
				t = "object of " + strings.Join(values.types(), " or ")
			}
		}
		names = append(names, t)
	}
	if len(names) == 0 {
		return "any"
	}
	return strings.Join(names, " or ")
}

type inputRow struct{ name, typ, need, about string }

// inputRows lists s's properties, required ones first, each followed by
// the fields of its array items when those are objects.
func inputRows(s *docSchema, prefix string) []inputRow {
	names := slices.Sorted(maps.Keys(s.Properties))
	slices.SortStableFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(s.Required, a), slices.Contains(s.Required, b)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	var rows []inputRow
	for _, name := range names {
		p := s.Properties[name]
		need := "optional"
		switch {
		case slices.Contains(s.Required, name):
			need = "required"
		case len(p.Default) > 0:
			need = "default `" + compactJSON(p.Default) + "`"
		}
		rows = append(rows, inputRow{prefix + name, p.typeName(), need, fieldAbout(p)})
		if p.Items != nil && len(p.Items.Properties) > 0 {
			rows = append(rows, inputRows(p.Items, prefix+name+"[].")...)
		}
	}
	return rows
}

// fieldAbout is a field's description followed by what the schema demands of
// its value.
func fieldAbout(s *docSchema) string {
	parts := []string{}
	if d := oneLine(s.Description); d != "" {
		parts = append(parts, strings.TrimSuffix(d, ".")+".")
	}
	if values := enumOf(s); len(values) > 0 {
		parts = append(parts, "One of "+quoteAll(values)+".")
	}
	parts = append(parts, fieldBounds(s, "")...)
	if s.Items != nil {
		parts = append(parts, fieldBounds(s.Items, "Each ")...)
		if lo, hi := s.Items.MinProperties, s.Items.MaxProperties; lo != nil && hi != nil && *lo == 1 && *hi == 1 {
			keys := slices.Sorted(maps.Keys(s.Items.Properties))
			parts = append(parts, "Each item holds exactly one of "+quoteAll(keys)+".")
		}
	}
	if s.PropertyNames != nil && s.PropertyNames.Pattern != "" {
		parts = append(parts, "Names match `"+s.PropertyNames.Pattern+"`.")
	}
	return strings.Join(parts, " ")
}

// fieldBounds says a value's limits as sentences, each starting with lead.
// The JSON-safe integer limits (±2^53-1) every integer carries are left out.
func fieldBounds(s *docSchema, lead string) []string {
	var out []string
	sentence := func(text string) {
		if lead != "" {
			text = lead + strings.ToLower(text[:1]) + text[1:]
		}
		out = append(out, text+".")
	}
	lo, hi := schemaNumber(s.Minimum), schemaNumber(s.Maximum)
	if x := schemaNumber(s.ExclusiveMinimum); x != "" {
		if slices.Contains(s.types(), "integer") {
			if n, err := strconv.ParseInt(x, 10, 64); err == nil {
				lo = strconv.FormatInt(n+1, 10)
			}
		} else {
			sentence("More than " + x)
		}
	}
	if r := spanWords(lo, hi, ""); r != "" {
		sentence(r)
	}
	if r := spanWords(optInt(s.MinLength), optInt(s.MaxLength), " characters"); r != "" {
		sentence(r)
	}
	if r := spanWords(optInt(s.MinItems), optInt(s.MaxItems), " items"); r != "" {
		sentence(r)
	}
	if s.Pattern != "" {
		sentence("Matches `" + s.Pattern + "`")
	}
	return out
}

// spanWords words a range: "1 to 256 characters", "at least 1", "at most 64 items".
func spanWords(lo, hi, unit string) string {
	switch {
	case lo != "" && hi != "":
		return lo + " to " + hi + unit
	case lo != "":
		return "At least " + lo + plural(lo, unit)
	case hi != "":
		return "At most " + hi + plural(hi, unit)
	}
	return ""
}

// plural is unit ("s" ending and all) unless n is 1.
func plural(n, unit string) string {
	if n == "1" {
		return strings.TrimSuffix(unit, "s")
	}
	return unit
}

// schemaNumber is n as written in the schema, or "" when absent or at the
// JSON-safe integer limit.
func schemaNumber(n *json.Number) string {
	if n == nil {
		return ""
	}
	if f, err := n.Float64(); err == nil && math.Abs(f) >= 1<<53-1 {
		return ""
	}
	return n.String()
}

func optInt(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

// enumOf is s's enum values (or those of its first alternative that has
// some), as text.
func enumOf(s *docSchema) []string {
	raw := s.Enum
	for _, alt := range s.AnyOf {
		if len(raw) == 0 {
			raw = alt.Enum
		}
	}
	var values []string
	for _, r := range raw {
		var v string
		if json.Unmarshal(r, &v) != nil {
			v = compactJSON(r)
		}
		values = append(values, v)
	}
	return values
}

// quoteAll is words as a list of code spans: "`a`, `b`".
func quoteAll(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "`" + w + "`"
	}
	return strings.Join(quoted, ", ")
}

// oneLine folds a description's line breaks and runs of spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// tableCell makes text safe inside a Markdown table cell.
func tableCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
