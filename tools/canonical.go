package tools

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
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
		for _, i := range jsonFields(v.Type()) {
			if !canonical(v.Field(i)) {
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
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
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
		if t.Key().Kind() != reflect.String {
			return never
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
