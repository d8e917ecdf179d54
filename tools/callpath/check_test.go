package callpath_test

import (
	"encoding/json"
	"math"
	"reflect"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/tmux-mcp/tmux-mcp/schemas"
	"github.com/tmux-mcp/tmux-mcp/tools/callpath"
)

// A compiled schema under test: the resolved schema jsonschema-go
// validates with and the checker compiled from it.
type subject struct {
	name    string
	schema  *jsonschema.Schema
	rs      *jsonschema.Resolved
	checker *callpath.Checker
}

// subjects are every schemas/*.json, resolved as tools resolves them; each
// must compile.
func subjects(t testing.TB) []subject {
	var out []subject
	for _, tool := range schemas.Tools() {
		for kind, raw := range map[string]json.RawMessage{"input": schemas.Input(tool), "output": schemas.Output(tool)} {
			var s jsonschema.Schema
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("%s.%s: %v", tool, kind, err)
			}
			rs, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
			if err != nil {
				t.Fatalf("%s.%s: %v", tool, kind, err)
			}
			c, err := callpath.Compile(rs)
			if err != nil {
				t.Fatalf("%s.%s does not compile: %v", tool, kind, err)
			}
			out = append(out, subject{tool + "." + kind, rs.Schema(), rs, c})
		}
	}
	slices.SortFunc(out, func(a, b subject) int { return strings.Compare(a.name, b.name) })
	return out
}

// agree fails t when the checker and jsonschema-go differ on v, which is
// round-tripped through JSON first so it is exactly what encoding/json
// decodes.
func agree(t testing.TB, s subject, v any) (valid bool) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: marshal %#v: %v", s.name, v, err)
	}
	var d any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	want := s.rs.Validate(&d)
	got := s.checker.Valid(&d)
	if got != (want == nil) {
		t.Errorf("%s: checker says valid=%v, jsonschema-go says %v, for %s", s.name, got, want, b)
	}
	return want == nil
}

// example builds a value meant to satisfy s: every property present (so
// required ones are), strings that match patterns, numbers inside bounds.
// It need not always succeed; the corpus test counts the valid ones.
func example(s *jsonschema.Schema, depth int) any {
	if s == nil || depth > 8 {
		return nil
	}
	if s.Const != nil {
		return *s.Const
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	if branches := slices.Concat(s.AnyOf, s.OneOf); len(branches) > 0 {
		// The schema's own keywords, overlaid by its first branch's.
		base := *s
		base.AnyOf, base.OneOf = nil, nil
		v, b := example(&base, depth), example(branches[0], depth+1)
		vm, ok1 := v.(map[string]any)
		bm, ok2 := b.(map[string]any)
		if !ok1 || !ok2 {
			return b
		}
		for k, e := range bm {
			vm[k] = e
		}
		return vm
	}
	typ := s.Type
	for _, t := range s.Types {
		if t != "null" {
			typ = t
			break
		}
	}
	switch typ {
	case "null":
		return nil
	case "boolean":
		return true
	case "integer", "number":
		n := 1.0
		if s.Minimum != nil {
			n = math.Ceil(*s.Minimum)
		}
		if s.ExclusiveMinimum != nil && n <= *s.ExclusiveMinimum {
			n = math.Floor(*s.ExclusiveMinimum) + 1
		}
		if s.Maximum != nil && n > *s.Maximum {
			n = math.Floor(*s.Maximum)
		}
		return n
	case "string":
		str := "a"
		if s.Pattern != "" {
			str = matching(s.Pattern)
		}
		if s.MinLength != nil && len([]rune(str)) < *s.MinLength && s.Pattern == "" {
			str = strings.Repeat("a", *s.MinLength)
		}
		return str
	case "array":
		n := 1
		if s.MinItems != nil && *s.MinItems > n {
			n = *s.MinItems
		}
		if s.MaxItems != nil && *s.MaxItems < n {
			n = *s.MaxItems
		}
		a := []any{}
		for range n {
			a = append(a, example(s.Items, depth+1))
		}
		return a
	case "object", "":
		m := map[string]any{}
		for k, p := range s.Properties {
			m[k] = example(p, depth+1)
		}
		if len(s.Properties) == 0 && s.AdditionalProperties != nil && s.AdditionalProperties.Not == nil {
			k := "k"
			if s.PropertyNames != nil && s.PropertyNames.Pattern != "" {
				k = matching(s.PropertyNames.Pattern)
			}
			m[k] = example(s.AdditionalProperties, depth+1)
		}
		return m
	}
	return nil
}

// matching is a short string the pattern matches (the first branch of
// every alternation, the fewest repeats of every loop but one).
func matching(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(*syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			b.WriteString(string(r.Rune))
		case syntax.OpCharClass:
			if len(r.Rune) > 0 {
				c := r.Rune[0]
				if c < ' ' && r.Rune[1] >= 'a' {
					c = 'a'
				}
				b.WriteRune(c)
			}
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpCapture, syntax.OpPlus:
			walk(r.Sub[0])
		case syntax.OpRepeat:
			for range max(r.Min, 1) {
				walk(r.Sub[0])
			}
		case syntax.OpConcat:
			for _, s := range r.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			walk(r.Sub[0])
		}
	}
	walk(re)
	return b.String()
}

// mutants are values near v for s: v with each key dropped, an unknown
// key added, each member replaced by its own mutants, and at every level
// wrong types, null, bounds ±1, fractions, strings at their length bounds
// in one- to three-byte runes, strings that miss the pattern, arrays at
// their item bounds, enum misses.
func mutants(s *jsonschema.Schema, v any, depth int) []any {
	out := []any{nil, true, false, 0.0, -1.0, 1.5, 1e15, 9007199254740993.0, "", "x", "%", []any{}, map[string]any{}}
	if s == nil || depth > 6 {
		return out
	}
	nums := func(f *float64) {
		if f != nil {
			out = append(out, *f, *f-1, *f+1, *f-0.5, *f+0.5, math.Nextafter(*f, math.Inf(1)), math.Nextafter(*f, math.Inf(-1)))
		}
	}
	nums(s.Minimum)
	nums(s.Maximum)
	nums(s.ExclusiveMinimum)
	nums(s.ExclusiveMaximum)
	for _, e := range s.Enum {
		out = append(out, e)
		if str, ok := e.(string); ok {
			out = append(out, str+"x", strings.ToUpper(str), str[:len(str)/2])
		}
	}
	lengths := []int{}
	for _, p := range []*int{s.MinLength, s.MaxLength} {
		if p != nil {
			lengths = append(lengths, *p-1, *p, *p+1)
		}
	}
	for _, n := range lengths {
		if n < 0 || n > 1<<16 {
			continue
		}
		for _, r := range []string{"a", "é", "世", "😀"} {
			out = append(out, strings.Repeat(r, n))
		}
	}
	if str, ok := v.(string); ok {
		out = append(out, str+"!", "!"+str, str+"\n", strings.ToUpper(str), str+str)
		if len(str) > 0 {
			out = append(out, str[1:], str[:len(str)-1])
		}
		if s.MaxLength != nil {
			out = append(out, str+strings.Repeat("é", max(*s.MaxLength-len([]rune(str)), 0)), str+strings.Repeat("é", max(*s.MaxLength-len([]rune(str))+1, 0)))
		}
	}
	if a, ok := v.([]any); ok {
		out = append(out, a[:0:0])
		if len(a) > 0 {
			out = append(out, a[1:], append(slices.Clone(a), a[0]))
			for _, m := range mutants(s.Items, a[0], depth+1) {
				c := slices.Clone(a)
				c[0] = m
				out = append(out, c)
			}
		}
		for _, p := range []*int{s.MinItems, s.MaxItems} {
			if p != nil && len(a) > 0 {
				for _, n := range []int{*p - 1, *p, *p + 1} {
					if n >= 0 && n < 300 {
						c := []any{}
						for range n {
							c = append(c, a[0])
						}
						out = append(out, c)
					}
				}
			}
		}
	}
	if m, ok := v.(map[string]any); ok {
		with := func(k string, e any) map[string]any {
			c := make(map[string]any, len(m)+1)
			for k, v := range m {
				c[k] = v
			}
			c[k] = e
			return c
		}
		out = append(out, with("zzUnknown", 1.0), with("", "x"), with("ü", nil))
		for k := range m {
			c := with(k, nil)
			delete(c, k)
			out = append(out, c)
			sub := s.Properties[k]
			if sub == nil {
				sub = s.AdditionalProperties
			}
			for _, e := range mutants(sub, m[k], depth+1) {
				out = append(out, with(k, e))
			}
		}
	}
	return out
}

// TestAgreesWithJSONSchemaGo holds the checker to jsonschema-go's verdict
// on a valid example of every schema and on its mutants.
func TestAgreesWithJSONSchemaGo(t *testing.T) {
	total, validTotal := 0, 0
	for _, s := range subjects(t) {
		ex := example(s.schema, 0)
		if !agree(t, s, ex) {
			t.Errorf("%s: the built example is not valid: %v", s.name, s.rs.Validate(&ex))
		}
		valid := 0
		ms := mutants(s.schema, ex, 0)
		for _, m := range ms {
			if agree(t, s, m) {
				valid++
			}
		}
		if valid == len(ms) {
			t.Errorf("%s: every mutant is valid", s.name)
		}
		total += len(ms)
		validTotal += valid
	}
	t.Logf("%d mutants, %d of them valid", total, validTotal)
}

// FuzzAgreesWithJSONSchemaGo decodes arbitrary JSON and holds the checker
// to jsonschema-go's verdict on it against one of the schemas.
func FuzzAgreesWithJSONSchemaGo(f *testing.F) {
	subs := subjects(f)
	for i, s := range subs {
		ex := example(s.schema, 0)
		b, _ := json.Marshal(ex)
		f.Add(uint16(i), b)
		for j, m := range mutants(s.schema, ex, 0) { // every seventh, to keep the seed corpus small
			if j%7 == 0 {
				b, _ := json.Marshal(m)
				f.Add(uint16(i), b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, i uint16, data []byte) {
		s := subs[int(i)%len(subs)]
		var d any
		if json.Unmarshal(data, &d) != nil {
			return
		}
		want := s.rs.Validate(&d)
		if got := s.checker.Valid(&d); got != (want == nil) {
			t.Errorf("%s: checker says valid=%v, jsonschema-go says %v, for %s", s.name, got, want, data)
		}
	})
}

// TestCompileDeclines holds that a keyword the checker does not implement
// makes Compile refuse the schema, at the root or nested.
func TestCompileDeclines(t *testing.T) {
	for _, src := range []string{
		`{"type":"object","properties":{"a":{"type":"integer","multipleOf":2}}}`,
		`{"type":"array","uniqueItems":true}`,
		`{"type":"object","patternProperties":{"^a":{}}}`,
		`{"allOf":[{"type":"string"}]}`,
		`{"not":{"type":"string"}}`,
		`{"if":{"type":"string"},"then":{"minLength":1}}`,
		`{"$defs":{"a":{"type":"string"}},"$ref":"#/$defs/a"}`,
		`{"type":"array","items":{"type":"array","contains":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":{"enum":[[1]]}}}`,
		`{"type":"object","dependentRequired":{"a":["b"]}}`,
		`{"type":"object","unevaluatedProperties":false}`,
		`{"type":"string","custom":true}`,
		`{"type":"array","prefixItems":[{"type":"string"}]}`,
	} {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(src), &s); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := callpath.Compile(rs); err == nil {
			t.Errorf("Compile(%s) = nil error, want it to decline", src)
		}
	}
	// And one that uses only what is supported does compile.
	var s jsonschema.Schema
	json.Unmarshal([]byte(`{"type":["integer","null"],"minimum":0,"description":"d","default":1}`), &s)
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := callpath.Compile(rs); err != nil {
		t.Errorf("Compile of a supported schema: %v", err)
	}
}

// TestNoDefaultsNoChange holds HasDefaults to its promise: for a schema
// without a default anywhere, ApplyDefaults changes none of the values
// the corpus test tries; and it finds the defaults of those that have one.
func TestNoDefaultsNoChange(t *testing.T) {
	with := 0
	for _, s := range subjects(t) {
		if s.checker.HasDefaults() {
			with++
			continue
		}
		ex := example(s.schema, 0)
		for _, m := range append(mutants(s.schema, ex, 0), ex) {
			b, _ := json.Marshal(m)
			var v, before any
			json.Unmarshal(b, &v)
			json.Unmarshal(b, &before)
			if err := s.rs.ApplyDefaults(&v); err != nil {
				t.Errorf("%s: ApplyDefaults(%s): %v", s.name, b, err)
			}
			if !reflect.DeepEqual(v, before) {
				t.Errorf("%s has no default, yet ApplyDefaults changed %s to %v", s.name, b, v)
			}
		}
	}
	if with == 0 {
		t.Error("no schema has a default; HasDefaults finds none")
	}
}
