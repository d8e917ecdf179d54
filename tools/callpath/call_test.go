package callpath

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
)

// TestArgumentsAsTheSDKWordsThem checks the refusals of [Arguments] in
// go-sdk's words (go-sdk v1.8.0 toolForErr), which shortenErrors and the
// goldens build on.
func TestArgumentsAsTheSDKWordsThem(t *testing.T) {
	in := For("capture_pane")
	for args, want := range map[string]string{
		`[]`:                    `validating "arguments": unmarshaling arguments: json: cannot unmarshal "[]" into Go value of type map[string]interface {}`,
		`"s"`:                   `validating "arguments": unmarshaling arguments: json: cannot unmarshal "\"s\"" into Go value of type map[string]interface {}`,
		`{}`:                    `validating "arguments": validating root: required: missing properties: ["paneId"]`,
		`{"paneId":"%1.5"}`:     `validating "arguments": validating root: validating /properties/paneId: pattern: "%1.5" does not match regular expression "^%\\d+$"`,
		`{"paneId":"%1","x":1}`: `validating "arguments": validating root: unexpected additional properties ["x"]`,
	} {
		_, refused := Arguments[gen.CapturePaneInput](in, json.RawMessage(args))
		if refused == nil {
			t.Errorf("%s: taken", args)
			continue
		}
		if got := refused.Error(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", args, got, want)
		}
	}
	got, refused := Arguments[gen.CapturePaneInput](in, json.RawMessage(`{"paneId":"%3","start":-2}`))
	if refused != nil || got.PaneID != "%3" || got.Start == nil || *got.Start != -2 {
		t.Errorf("arguments = %+v, %v", got, refused)
	}
}

// TestStructuredSortsKeys checks that structured content comes with its
// keys sorted, as go-sdk sends a typed tool's result.
func TestStructuredSortsKeys(t *testing.T) {
	out := For("capture_pane")
	data, obj, err := out.Result(gen.CapturePaneOutput{PaneID: "%0", Text: "a<b"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"byteClamped":false,"droppedLines":0,"omittedBytes":0,"paneId":"%0","rangeClamped":false,"returnedBytes":0,"text":"a\u003cb","totalLines":0}`
	if string(data) != want {
		t.Errorf("structured content\n got %s\nwant %s", data, want)
	}
	if obj["paneId"] != "%0" {
		t.Errorf("object = %v", obj)
	}
	if _, _, err := out.Result(map[string]any{"paneId": "x"}); err == nil || !strings.HasPrefix(err.Error(), "validating tool output: ") {
		t.Errorf("invalid output: err = %v", err)
	}
}

// AskedFields must give what Asked gives, cut to the names asked for:
// the text block's effective…Ms lines compare with it.
func TestAskedFieldsIsAskedCut(t *testing.T) {
	zero, ten, cursor := 0, 10000, "ltxc1.0123456789abcdef0123456789abcdef.7"
	names := []string{"timeoutMs", "waitMs", "maxLines", "paneId", "cursor", "patterns", "regex", "nothing"}
	yes := true
	for _, in := range []any{
		gen.WaitForTextInput{PaneID: "%1"},
		gen.WaitForTextInput{PaneID: "%1", TimeoutMs: &ten, Patterns: []string{"a", "b"}, Regex: &yes, Cursor: &cursor},
		gen.WaitForTextInput{TimeoutMs: &zero, MaxLines: &zero, Patterns: []string{}},
		gen.CaptureSinceInput{PaneID: "%2", WaitMs: &ten},
		gen.CaptureSinceInput{},
		map[string]any{"timeoutMs": 5.0},
	} {
		want := map[string]any{}
		for _, name := range names {
			if a, ok := Asked(in)[name]; ok {
				want[name] = a
			}
		}
		got := AskedFields(in, names)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("AskedFields(%#v) = %v, want %v", in, got, want)
		}
	}
}
