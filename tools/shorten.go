package tools

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// longQuoted is a double-quoted string of more than quoteLimit characters,
// as argument validation errors echo the value they refused. It is
// compiled on first use, sparing every start a fraction of a millisecond.
var longQuoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.){200,}"`) })

const quoteKeep = 64 // characters of a long quoted value an error keeps

// validationPrefix starts go-sdk's errors for arguments a schema refused.
const validationPrefix = `validating "arguments"`

// shortenErrors rewrites the SDK's argument validation errors for the
// model: the field in argument terms (keys[].text, not a schema path),
// what is wrong, and a refused value only where it cannot be a secret — a
// value of a field that carries text for a pane, a program or the
// environment (text, keys, value, env, command, argv) is given as its
// length alone. A long value elsewhere keeps its start: a refused 1 MB
// argument would otherwise come back whole, costing the model the tokens
// the limit was there to save. Errors written here are left alone.
func shortenErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			for _, c := range r.Content {
				if t, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(t.Text, validationPrefix) {
					t.Text = leanValidation(t.Text)
				}
			}
		}
		return res, err
	}
}

// secretFields are the arguments whose values may hold what the caller
// would not see echoed: typed or pasted text, option and environment
// values, commands and program arguments.
var secretFields = map[string]bool{"text": true, "keys": true, "value": true, "env": true, "command": true, "argv": true}

// schemaStep is one "validating /properties/…: " step of an SDK error.
var schemaStep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`validating (/[^:]*): `) })

// anyQuoted is a double-quoted JSON string in an error.
var anyQuoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"`) })

// leanValidation turns `validating "arguments": validating root: validating
// /properties/keys: … validating /properties/keys/items/properties/text:
// maxLength: "…" contains …` into `invalid argument keys[].text: maxLength:
// (20000 bytes) contains …`.
func leanValidation(s string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(s, validationPrefix+": "), "validating root: ")
	field, secret := "", false
	if steps := schemaStep().FindAllStringSubmatchIndex(rest, -1); len(steps) > 0 {
		last := steps[len(steps)-1]
		field, secret = argumentPath(rest[last[2]:last[3]])
		rest = rest[last[1]:]
	}
	if secret {
		rest = hideValues(rest)
	} else {
		rest = shortenQuoted(rest)
	}
	if field == "" {
		return "invalid arguments: " + rest
	}
	return "invalid argument " + field + ": " + rest
}

// hideValues replaces each quoted value in an error's text with its
// length, and the value of a type error with a word; the JSON type names
// of a type error ("has type "string", want "integer"") stay.
func hideValues(s string) string {
	// A type error prints the value as Go does, unquoted.
	if v, ok := strings.CutPrefix(s, "type: "); ok {
		if i := strings.LastIndex(v, " has type "); i >= 0 {
			return "type: (value not shown)" + v[i:]
		}
	}
	var b strings.Builder
	last := 0
	for _, m := range anyQuoted().FindAllStringIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		before := s[:m[0]]
		if strings.HasSuffix(before, "has type ") || strings.HasSuffix(before, "want ") {
			b.WriteString(s[m[0]:m[1]])
		} else {
			fmt.Fprintf(&b, "(%d bytes, not shown)", m[1]-m[0]-2)
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// argumentPath names a schema path as the argument it checks
// (/properties/keys/items/properties/text: keys[].text) and says whether
// that argument's values may be secrets. Environment variable names
// (propertyNames) are not.
func argumentPath(schemaPath string) (string, bool) {
	var b strings.Builder
	secret := false
	parts := strings.Split(strings.Trim(schemaPath, "/"), "/")
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties":
			if i+1 < len(parts) {
				i++
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(parts[i])
				secret = secret || secretFields[parts[i]]
			}
		case "items":
			b.WriteString("[]")
		case "additionalProperties":
			b.WriteString(".*")
		case "propertyNames":
			b.WriteString(" (a name)")
			secret = false
		}
	}
	return b.String(), secret
}

// shortenQuoted keeps the start of each long quoted value in s and says how
// long it was.
func shortenQuoted(s string) string {
	return longQuoted().ReplaceAllStringFunc(s, func(q string) string {
		kept := []rune(q[1 : len(q)-1])[:quoteKeep]
		// Do not end inside an escape: a lone trailing backslash would
		// escape the closing quote.
		trailing := 0
		for i := len(kept) - 1; i >= 0 && kept[i] == '\\'; i-- {
			trailing++
		}
		if trailing%2 == 1 {
			kept = kept[:len(kept)-1]
		}
		return fmt.Sprintf(`"%s"… (%d bytes in all)`, string(kept), len(q)-2)
	})
}
