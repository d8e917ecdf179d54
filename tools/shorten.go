package tools

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// longQuoted is a double-quoted string of more than quoteLimit characters,
// as argument validation errors echo the value they refused.
var longQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.){200,}"`)

const quoteKeep = 64 // characters of a long quoted value an error keeps

// validationPrefix starts go-sdk's errors for arguments a schema refused.
const validationPrefix = `validating "arguments"`

// shortenErrors cuts long quoted values out of the SDK's argument
// validation errors: a refused 1 MB argument would otherwise come back whole
// in the error that names it, costing the model the tokens the limit was
// there to save. Errors written here are left alone (their quotes are prose).
func shortenErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			for _, c := range r.Content {
				if t, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(t.Text, validationPrefix) {
					t.Text = shortenQuoted(t.Text)
				}
			}
		}
		return res, err
	}
}

// shortenQuoted keeps the start of each long quoted value in s and says how
// long it was.
func shortenQuoted(s string) string {
	return longQuoted.ReplaceAllStringFunc(s, func(q string) string {
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
