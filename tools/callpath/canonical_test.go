package callpath_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tools"
	"github.com/tmux-mcp/tmux-mcp/tools/callpath"
)

// No tool's result type rules out a single marshal (its interfaces are
// judged by what they hold); a type that did would still work, marshalled
// twice.
func TestEveryResultTypeCanonical(t *testing.T) {
	for _, tool := range tools.Catalogue {
		if _, out := tool.Types(); callpath.NeverCanonical(out) {
			t.Errorf("%s: result type %v is never canonical", tool.Name, out)
		}
	}
}

func TestCanonicalRefuses(t *testing.T) {
	type unsorted struct {
		B int `json:"b"`
		A int `json:"a"`
	}
	type inner struct {
		A int `json:"a"`
	}
	type embeds struct {
		inner
		B int `json:"b"`
	}
	type holdsAny struct {
		A any `json:"a"`
	}
	type deepUnsorted struct {
		A []unsorted `json:"a"`
	}
	type raw struct {
		A json.RawMessage `json:"a"`
	}
	type sorted struct {
		A *int            `json:"a,omitempty"`
		B map[string]bool `json:"b"`
		C []inner         `json:"c"`
		D string          `json:"D"` // "D" < "a": not sorted
	}
	for _, v := range []any{unsorted{}, embeds{}, deepUnsorted{}, raw{}, sorted{},
		holdsAny{json.RawMessage("1")}, holdsAny{map[string]any{"k": []any{unsorted{}}}}} {
		if callpath.Canonical(reflect.ValueOf(v)) {
			t.Errorf("%#v: canonical, want not", v)
		}
	}
	for _, v := range []any{holdsAny{}, holdsAny{"x"}, holdsAny{map[string]any{"k": []any{inner{}, 1.5}}}} {
		if !callpath.Canonical(reflect.ValueOf(v)) {
			t.Errorf("%#v: not canonical", v)
		}
	}
	type fine struct {
		A *int            `json:"a,omitempty"`
		B map[string]bool `json:"b"`
		C []inner         `json:"c"`
		d string
		E string `json:"-"`
	}
	if !callpath.Canonical(reflect.ValueOf(fine{})) {
		t.Error("a sorted struct of canonical types: not canonical")
	}
}

// For random values of every result type, one marshal gives what the
// second marshal of the decoded value gives — but where a string is not
// UTF-8, which structured marshals again.
func TestCanonicalMarshalsOnce(t *testing.T) {
	type unsorted struct {
		B int `json:"b"`
		A any `json:"a"`
	}
	type holdsAny struct {
		A any `json:"a"`
	}
	type omits struct {
		A []int           `json:"a,omitempty"`
		B map[string]bool `json:"b,omitempty"`
		C *string         `json:"c,omitempty"`
		D string          `json:"d,omitempty"`
		E int             `json:"e,omitempty"`
		F bool            `json:"f,omitempty"`
		G any             `json:"g,omitempty"`
		H []string        `json:"h"`
	}
	r := rand.New(rand.NewPCG(1, 2))
	types := []reflect.Type{reflect.TypeFor[gen.GetPaneInfoOutput](), reflect.TypeFor[gen.ListPanesOutput](),
		reflect.TypeFor[unsorted](), reflect.TypeFor[holdsAny](), reflect.TypeFor[map[string]unsorted](), reflect.TypeFor[omits]()}
	for _, tool := range tools.Catalogue {
		_, out := tool.Types()
		types = append(types, out)
	}
	checked, builtN := 0, 0
	for _, typ := range types {
		for range 50 {
			v := reflect.New(typ).Elem()
			fill(r, v, 0)
			once, err := json.Marshal(v.Interface())
			if err != nil {
				t.Fatal(err)
			}
			var back any
			if err := json.Unmarshal(once, &back); err != nil {
				t.Fatal(err)
			}
			twice, _ := json.Marshal(back)
			if built, ok := callpath.Decoded(v); ok {
				if !reflect.DeepEqual(built, back) {
					t.Fatalf("%v: built %#v\ndecoded %#v", typ, built, back)
				}
				builtN++
			}
			if !callpath.Canonical(v) || bytes.Contains(once, callpath.ReplacedUTF8) {
				continue
			}
			checked++
			if !bytes.Equal(once, twice) {
				t.Fatalf("%v:\n once %s\ntwice %s", typ, once, twice)
			}
		}
	}
	if builtN < len(types)*40 {
		t.Errorf("only %d of %d values were built", builtN, len(types)*50)
	}
	if checked < len(types)*25 {
		t.Errorf("only %d of %d values were canonical and checked", checked, len(types)*50)
	}
}

// fill sets v to a random value: nil or set pointers, short slices and
// maps, integers within float64's exact range, and strings with what
// JSON escapes, HTML characters, other scripts and bytes that are not
// UTF-8.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	pieces := []string{"a", "<", "&", ">", "\n", "\t", "\x01", "é", "\u2028", "\xff", "\"", "\\", "日本", "%0", "\ufffd"}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.String:
		s := ""
		for range r.IntN(6) {
			s += pieces[r.IntN(len(pieces))]
		}
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(r.Int64N(1<<53) - 1<<52)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64N(1 << 8))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(r.NormFloat64() * 1e6)
	case reflect.Pointer:
		if depth < 4 && r.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(r, v.Elem(), depth+1)
		}
	case reflect.Slice:
		if depth < 4 {
			n := r.IntN(3)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fill(r, v.Index(i), depth+1)
			}
		}
	case reflect.Map:
		if depth < 4 {
			v.Set(reflect.MakeMap(v.Type()))
			for range r.IntN(3) {
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fill(r, k, depth+1)
				fill(r, e, depth+1)
				v.SetMapIndex(k, e)
			}
		}
	case reflect.Interface:
		// What decoded JSON holds, and a value that is never canonical.
		switch r.IntN(6) {
		case 1:
			v.Set(reflect.ValueOf(pieces[r.IntN(len(pieces))]))
		case 2:
			v.Set(reflect.ValueOf(r.NormFloat64()))
		case 3:
			if depth < 4 {
				m := map[string]any{}
				for range r.IntN(3) {
					var e any
					fill(r, reflect.ValueOf(&e).Elem(), depth+1)
					m[pieces[r.IntN(len(pieces))]] = e
				}
				v.Set(reflect.ValueOf(m))
			}
		case 4:
			v.Set(reflect.ValueOf(json.RawMessage(`{"b":1,"a":2}`)))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	}
}
