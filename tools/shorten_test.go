package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

func TestShortenQuoted(t *testing.T) {
	long := strings.Repeat("x", 40000)
	got := tools.ShortenQuoted(`maxLength: "` + long + `" is too long`)
	want := `maxLength: "` + strings.Repeat("x", tools.QuoteKeep) + `"… (40000 bytes in all) is too long`
	if got != want {
		t.Errorf("tools.ShortenQuoted = %q, want %q", got, want)
	}
	short := `pattern: "x" does not match "^%\\d+$"`
	if got := tools.ShortenQuoted(short); got != short {
		t.Errorf("a short value changed: %q", got)
	}
	escaped := `"` + strings.Repeat(`a\"`, 100) + `"`
	if got, want := tools.ShortenQuoted(escaped), `"`+strings.Repeat(`a\"`, 21)+`a"… (300 bytes in all)`; got != want {
		t.Errorf("escaped quotes inside a value: %q, want %q", got, want)
	}
	cut := `"` + strings.Repeat("b", tools.QuoteKeep-1) + `\"` + strings.Repeat("c", 200) + `"`
	if got, want := tools.ShortenQuoted(cut), `"`+strings.Repeat("b", tools.QuoteKeep-1)+`"… (265 bytes in all)`; got != want {
		t.Errorf("a cut inside an escape: %q, want %q", got, want)
	}
}

func TestLeanValidation(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`validating "arguments": validating root: validating /properties/paneId: pattern: "x" does not match regular expression "^%\\d+$"`,
			`invalid argument paneId: pattern: "x" does not match regular expression "^%\\d+$"`},
		{`validating "arguments": validating root: required: missing properties: ["paneId"]`,
			`invalid arguments: required: missing properties: ["paneId"]`},
		// Values of text-bearing fields are never echoed, only measured.
		{`validating "arguments": validating root: validating /properties/keys: validating /properties/keys/items: validating /properties/keys/items/properties/text: maxLength: "s3cret-token" contains 12 Unicode code points, more than 4`,
			`invalid argument keys[].text: maxLength: (12 bytes, not shown) contains 12 Unicode code points, more than 4`},
		{`validating "arguments": validating root: validating /properties/value: type: s3cret has type "string", want "integer"`,
			`invalid argument value: type: (value not shown) has type "string", want "integer"`},
		{`validating "arguments": validating root: validating /properties/env: validating /properties/env/additionalProperties: maxLength: "s3cret" is long`,
			`invalid argument env.*: maxLength: (6 bytes, not shown) is long`},
		// An environment variable's name is not a secret.
		{`validating "arguments": validating root: validating /properties/env: validating /properties/env/propertyNames: pattern: "1X" does not match regular expression "^[A-Za-z_]$"`,
			`invalid argument env (a name): pattern: "1X" does not match regular expression "^[A-Za-z_]$"`},
	} {
		if got := tools.LeanValidation(c.in); got != c.want {
			t.Errorf("LeanValidation(%s)\n = %s\nwant %s", c.in, got, c.want)
		}
	}
}

// A refused long argument comes back shortened through a real server.
func TestLongArgumentErrorIsShort(t *testing.T) {
	sock := tmuxtest.Server(t)
	client := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	cs, stop := serve(t, client, tools.Mutating, nil)
	defer stop()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "rename_window",
		Arguments: map[string]any{"windowId": "@0", "name": strings.Repeat("z", 40000)}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || len(text) > 500 || !strings.Contains(text, "(40000 bytes in all)") {
		t.Errorf("error for a 40000-byte name (%d bytes): %.600s", len(text), text)
	}
}
