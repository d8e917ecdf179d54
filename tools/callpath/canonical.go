package callpath

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// canonical reports whether encoding/json marshals v the way it marshals
// v decoded into an `any` and marshalled again: keys sorted, nothing a
// custom marshaller writes. Then a tools/call's result needs one marshal,
// not two. It holds for structs whose JSON names, in field order, are
// sorted (go-jsonschema writes them so), without embedded fields, made of
// values that hold it too; maps are sorted by encoding/json itself. A type
// with its own marshaller could write anything. An interface is judged by
// the value it holds, so only values whose type holds interfaces are
// walked; the verdict on every type is kept.
func canonical(v reflect.Value) bool {
	switch verdictOf(v.Type()) {
	case always:
		return true
	case never:
		return false
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		return v.IsNil() || canonical(v.Elem())
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !canonical(v.Index(i)) {
				return false
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !canonical(it.Value()) {
				return false
			}
		}
	case reflect.Struct:
		for _, f := range planOf(v.Type()).fields {
			if !canonical(v.Field(f.index)) {
				return false
			}
		}
	}
	return true
}

// A verdict is what a type alone says of its values.
type verdict int

const (
	never   verdict = iota // no value of it is canonical
	always                 // every value of it is
	depends                // it holds interfaces: see the values
)

var (
	verdicts          sync.Map // reflect.Type → verdict
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]() // marshals as a number
)

func verdictOf(t reflect.Type) verdict {
	if v, ok := verdicts.Load(t); ok {
		return v.(verdict)
	}
	v := judge(t, map[reflect.Type]bool{})
	verdicts.Store(t, v)
	return v
}

// judge is the verdict on t; inside marks the types being judged, of
// which a recursive type's values are walked.
func judge(t reflect.Type, inside map[reflect.Type]bool) verdict {
	if inside[t] {
		return depends
	}
	inside[t] = true
	defer delete(inside, t)
	if t == numberType || t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		t.Kind() != reflect.Interface && (reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)) {
		return never
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return always
	case reflect.Interface:
		return depends
	case reflect.Pointer, reflect.Slice, reflect.Array:
		// A []byte marshals as base64, a string that marshals the same.
		return judge(t.Elem(), inside)
	case reflect.Map:
		if k := t.Key(); k.Kind() != reflect.String || k.Implements(textMarshalerType) {
			return never // encoding/json would write the key as its text
		}
		return judge(t.Elem(), inside)
	case reflect.Struct:
		last, all := "", always
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				return never
			}
			name, ok := jsonName(f)
			if !ok {
				continue
			}
			if last != "" && name <= last {
				return never
			}
			last = name
			switch judge(f.Type, inside) {
			case never:
				return never
			case depends:
				all = depends
			}
		}
		return all
	}
	return never // channels, functions
}

// jsonName is the name encoding/json gives field f, and whether it
// marshals f at all.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return f.Name, true
}

// jsonFields are the indexes of the fields of struct t that encoding/json
// marshals.
func jsonFields(t reflect.Type) []int {
	var out []int
	for i := range t.NumField() {
		if _, ok := jsonName(t.Field(i)); ok {
			out = append(out, i)
		}
	}
	return out
}

// decoded is what json.Unmarshal of json.Marshal(v) into an `any` gives,
// built without either, for a canonical v (see [canonical]); ok is false
// for what it does not build (byte slices, float32s, omitzero and
// ",string" fields, keys that are not UTF-8), which must take the long way.
func decoded(v reflect.Value) (out any, ok bool) {
	if v.Type() == numberType {
		return nil, false
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool(), true
	case reflect.String:
		return validUTF8(v.String()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), true
	case reflect.Float64:
		return v.Float(), true
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil, true
		}
		return decoded(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, true
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil, false // base64
		}
		list := make([]any, v.Len())
		for i := range list {
			if list[i], ok = decoded(v.Index(i)); !ok {
				return nil, false
			}
		}
		return list, true
	case reflect.Map:
		if v.IsNil() {
			return nil, true
		}
		m := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			k := it.Key().String()
			if !utf8.ValidString(k) {
				return nil, false
			}
			if m[k], ok = decoded(it.Value()); !ok {
				return nil, false
			}
		}
		return m, true
	case reflect.Struct:
		p := planOf(v.Type())
		if p.refused {
			return nil, false
		}
		m := make(map[string]any, len(p.fields))
		for _, f := range p.fields {
			fv := v.Field(f.index)
			if f.omitEmpty && emptyValue(fv) {
				continue
			}
			if m[f.name], ok = decoded(fv); !ok {
				return nil, false
			}
		}
		return m, true
	}
	return nil, false
}

// A plan is how [decoded] reads a struct type: its marshalled fields, or
// refused for an option it does not follow.
type plan struct {
	fields  []plannedField
	refused bool
}

type plannedField struct {
	index     int
	name      string
	omitEmpty bool
	omitZero  bool // refused by decoded, followed by AskedFields
	quoted    bool // ",string": refused by both
}

var plans sync.Map // reflect.Type → *plan

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := &plan{}
	for _, i := range jsonFields(t) {
		f := t.Field(i)
		name, _ := jsonName(f)
		_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		pf := plannedField{index: i, name: name}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				pf.omitEmpty = true
			case "omitzero":
				pf.omitZero, p.refused = true, true
			case "string":
				pf.quoted, p.refused = true, true
			}
		}
		p.fields = append(p.fields, pf)
	}
	plans.Store(t, p)
	return p
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64,
		reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// validUTF8 is s as encoding/json writes it: each byte that does not
// start a valid character becomes U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
