// Package schemacheck decides, faster than jsonschema-go, whether a decoded
// JSON value (what encoding/json gives an any: map[string]any, []any,
// string, float64, bool, nil) satisfies a resolved schema.
//
// It compiles the root of a *jsonschema.Resolved into a tree of checks
// covering exactly the keywords tmux-mcp's schemas use: type (one or a
// list), enum and const of scalars, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, minLength and maxLength (in runes), pattern, items,
// minItems, maxItems, properties, required, additionalProperties (false or
// a schema), propertyNames, minProperties, maxProperties, anyOf and oneOf;
// $schema, title, description, default, examples, format and the other
// annotations are ignored, as jsonschema-go's Validate ignores them. A
// schema with any other keyword does not compile, and its caller keeps
// using jsonschema-go alone.
//
// The verdict follows jsonschema-go v0.4.3's validate.go rule for rule: a
// float64 is an "integer" when it has no fractional part, numbers compare
// exactly, enum members are equal as jsonschema-go's equalValue finds
// them, patterns run through the same regexp package. The checker only
// answers yes or no: a caller that gets "no" runs jsonschema-go's Validate
// for its error, so a disagreement costs at worst time when the checker
// refuses what jsonschema-go accepts, and the tests hold that it never
// accepts what jsonschema-go refuses.
package schemacheck
