package callpath

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// A Checker says whether a decoded JSON value is valid against the schema
// it was compiled from.
type Checker struct {
	root     *node
	defaults bool
}

// HasDefaults reports whether any schema in the tree declares a default.
// Without one, jsonschema-go's ApplyDefaults, which only ever adds a
// property's default or recurses toward one, leaves every value as it is.
func (c *Checker) HasDefaults() bool { return c.defaults }

// Valid reports whether v, a value decoded by encoding/json into an any
// (or a pointer to one), satisfies the schema. Any other Go type is
// reported invalid, leaving the verdict to jsonschema-go.
func (c *Checker) Valid(v any) bool {
	if p, ok := v.(*any); ok {
		v = *p
	}
	return c.root.valid(v)
}

// JSON types as bits of node.types.
const (
	tNull = 1 << iota
	tBoolean
	tInteger
	tNumber
	tString
	tArray
	tObject
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "integer": tInteger, "number": tNumber,
	"string": tString, "array": tArray, "object": tObject,
}

// A node is one schema's checks, in the order jsonschema-go makes them.
type node struct {
	types uint8 // 0: any type

	enum     []any // scalars: nil, bool, float64, string
	hasEnum  bool
	constVal any
	hasConst bool

	min, max, exMin, exMax             float64
	hasMin, hasMax, hasExMin, hasExMax bool

	minLen, maxLen int // -1: none
	pattern        *regexp.Regexp

	items              *node
	minItems, maxItems int // -1: none

	props       map[string]*node
	required    []string
	addlFalse   bool
	addl        *node
	propNames   *node
	minProps    int // -1: none
	maxProps    int // -1: none
	anyOf       []*node
	oneOf       []*node
	hasObjCheck bool
}

// Compile builds a Checker for rs's root schema, or says which keyword of
// it the package does not support.
func Compile(rs *jsonschema.Resolved) (*Checker, error) {
	s := rs.Schema()
	switch s.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2020-12/schema":
	default:
		return nil, fmt.Errorf("schemacheck: $schema %q", s.Schema)
	}
	c := &Checker{}
	n, err := c.compile(s)
	if err != nil {
		return nil, err
	}
	c.root = n
	return c, nil
}

// unsupported reports a keyword of s that compile neither reads nor
// knowingly ignores.
func unsupported(s *jsonschema.Schema) error {
	c := *s
	c.Schema, c.Comment, c.Title, c.Description, c.Default = "", "", "", "", nil
	c.Deprecated, c.ReadOnly, c.WriteOnly, c.Examples, c.Format = false, false, false, nil, ""
	c.PropertyOrder = nil
	// Vendor extensions ("x-…"), which Validate never reads, are ignored;
	// any other unknown keyword declines.
	for k := range c.Extra {
		if !strings.HasPrefix(k, "x-") {
			return fmt.Errorf("schemacheck: unsupported keyword %q", k)
		}
	}
	c.Extra = nil
	c.Type, c.Types, c.Enum, c.Const = "", nil, nil, nil
	c.Minimum, c.Maximum, c.ExclusiveMinimum, c.ExclusiveMaximum = nil, nil, nil, nil
	c.MinLength, c.MaxLength, c.Pattern = nil, nil, ""
	c.Items, c.MinItems, c.MaxItems = nil, nil, nil
	c.Properties, c.Required, c.AdditionalProperties, c.PropertyNames = nil, nil, nil, nil
	c.MinProperties, c.MaxProperties, c.AnyOf, c.OneOf = nil, nil, nil, nil
	if !reflect.ValueOf(c).IsZero() {
		b, _ := c.MarshalJSON()
		return fmt.Errorf("schemacheck: unsupported keywords in %s", b)
	}
	return nil
}

func intOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func (c *Checker) compile(s *jsonschema.Schema) (*node, error) {
	if err := unsupported(s); err != nil {
		return nil, err
	}
	if s.Default != nil {
		c.defaults = true
	}
	n := &node{
		minLen: intOr(s.MinLength), maxLen: intOr(s.MaxLength),
		minItems: intOr(s.MinItems), maxItems: intOr(s.MaxItems),
		minProps: intOr(s.MinProperties), maxProps: intOr(s.MaxProperties),
		required: s.Required,
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	for _, t := range types {
		b, ok := typeBits[t]
		if !ok {
			return nil, fmt.Errorf("schemacheck: type %q", t)
		}
		n.types |= b
	}
	if n.types&tNumber != 0 {
		n.types |= tInteger // an integer is a number
	}
	if s.Enum != nil {
		n.hasEnum = true
		for _, e := range s.Enum {
			if !scalar(e) {
				return nil, fmt.Errorf("schemacheck: enum member %v", e)
			}
			n.enum = append(n.enum, e)
		}
	}
	if s.Const != nil {
		if !scalar(*s.Const) {
			return nil, fmt.Errorf("schemacheck: const %v", *s.Const)
		}
		n.hasConst, n.constVal = true, *s.Const
	}
	set := func(p *float64, v *float64, has *bool) {
		if p != nil {
			*v, *has = *p, true
		}
	}
	set(s.Minimum, &n.min, &n.hasMin)
	set(s.Maximum, &n.max, &n.hasMax)
	set(s.ExclusiveMinimum, &n.exMin, &n.hasExMin)
	set(s.ExclusiveMaximum, &n.exMax, &n.hasExMax)
	for _, f := range []float64{n.min, n.max, n.exMin, n.exMax} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("schemacheck: bound %v", f)
		}
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return nil, fmt.Errorf("schemacheck: pattern: %v", err)
		}
		n.pattern = re
	}
	var err error
	sub := func(s *jsonschema.Schema) *node {
		if s == nil || err != nil {
			return nil
		}
		var sn *node
		sn, err = c.compile(s)
		return sn
	}
	n.items = sub(s.Items)
	if s.Properties != nil {
		n.props = make(map[string]*node, len(s.Properties))
		for k, ps := range s.Properties {
			n.props[k] = sub(ps)
		}
	}
	if a := s.AdditionalProperties; a != nil {
		// false is {"not": {}}, as jsonschema-go's isFalsy tests it.
		if a.Not != nil && reflect.ValueOf(*a.Not).IsZero() {
			rest := *a
			rest.Not = nil
			if !reflect.ValueOf(rest).IsZero() {
				return nil, fmt.Errorf("schemacheck: additionalProperties with not and more")
			}
			n.addlFalse = true
		} else {
			n.addl = sub(a)
		}
	}
	n.propNames = sub(s.PropertyNames)
	for _, a := range s.AnyOf {
		n.anyOf = append(n.anyOf, sub(a))
	}
	for _, o := range s.OneOf {
		n.oneOf = append(n.oneOf, sub(o))
	}
	if err != nil {
		return nil, err
	}
	n.hasObjCheck = n.props != nil || n.addlFalse || n.addl != nil || n.propNames != nil ||
		n.minProps >= 0 || n.maxProps >= 0 || n.required != nil
	return n, nil
}

func scalar(v any) bool {
	switch v.(type) {
	case nil, bool, float64, string:
		return true
	}
	return false
}

// equal is jsonschema-go's equalValue on scalars: numbers by value, the
// rest by kind and value.
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	return false
}

func typeOf(v any) (uint8, bool) {
	switch x := v.(type) {
	case nil:
		return tNull, true
	case bool:
		return tBoolean, true
	case float64:
		if _, f := math.Modf(x); f == 0 {
			return tInteger, true
		}
		return tNumber, true
	case string:
		return tString, true
	case []any:
		return tArray, true
	case map[string]any:
		return tObject, true
	}
	return 0, false
}

func (n *node) valid(v any) bool {
	t, ok := typeOf(v)
	if !ok {
		return false
	}
	if n.types != 0 && n.types&t == 0 {
		return false
	}
	if n.hasEnum {
		found := false
		for _, e := range n.enum {
			if equal(e, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if n.hasConst && !equal(n.constVal, v) {
		return false
	}
	switch x := v.(type) {
	case float64:
		if n.hasMin && x < n.min || n.hasMax && x > n.max ||
			n.hasExMin && x <= n.exMin || n.hasExMax && x >= n.exMax {
			return false
		}
	case string:
		if n.minLen >= 0 || n.maxLen >= 0 {
			c := utf8.RuneCountInString(x)
			if n.minLen >= 0 && c < n.minLen || n.maxLen >= 0 && c > n.maxLen {
				return false
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(x) {
			return false
		}
	}
	if n.anyOf != nil {
		any := false
		for _, a := range n.anyOf {
			if a.valid(v) {
				any = true
				break
			}
		}
		if !any {
			return false
		}
	}
	if n.oneOf != nil {
		count := 0
		for _, o := range n.oneOf {
			if o.valid(v) {
				count++
			}
		}
		if count != 1 {
			return false
		}
	}
	switch x := v.(type) {
	case []any:
		if n.items != nil {
			for _, e := range x {
				if !n.items.valid(e) {
					return false
				}
			}
		}
		if n.minItems >= 0 && len(x) < n.minItems || n.maxItems >= 0 && len(x) > n.maxItems {
			return false
		}
	case map[string]any:
		if n.hasObjCheck && !n.validObject(x) {
			return false
		}
	}
	return true
}

func (n *node) validObject(m map[string]any) bool {
	for k, e := range m {
		p, declared := n.props[k]
		switch {
		case declared:
			if !p.valid(e) {
				return false
			}
		case n.addlFalse:
			return false
		case n.addl != nil:
			if !n.addl.valid(e) {
				return false
			}
		}
		if n.propNames != nil && !n.propNames.valid(k) {
			return false
		}
	}
	if n.minProps >= 0 && len(m) < n.minProps || n.maxProps >= 0 && len(m) > n.maxProps {
		return false
	}
	for _, r := range n.required {
		if _, ok := m[r]; !ok {
			return false
		}
	}
	return true
}
