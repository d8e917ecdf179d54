package stdio

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fast path writes the bytes the SDK writes (sdkRaw), or declines.
func TestToolResultAsTheSDKMarshalsIt(t *testing.T) {
	text := func(s ...string) []mcp.Content {
		var c []mcp.Content
		for _, x := range s {
			c = append(c, &mcp.TextContent{Text: x})
		}
		return c
	}
	hostile := "a<b>&c \u2028\u2029 \x00\x1f \xff\xfe \"q\" \\ é 🙂\n\t"
	taken := []*mcp.CallToolResult{
		{Content: text("panes: 1")},
		{Content: text("x"), StructuredContent: json.RawMessage(`{"a":1,"b":"<x>&\u2028"}`)},
		{Content: text(hostile), StructuredContent: json.RawMessage(`{"t":` + string(mustJSON(t, hostile)) + `}`)},
		{Content: text("a", "b"), StructuredContent: json.RawMessage(" {\"a\" : [ 1, 2 ] }\n")},
		{Content: text(""), IsError: true},
		{Content: []mcp.Content{}, StructuredContent: json.RawMessage(`[]`)},
		{Content: nil},
	}
	for _, r := range taken {
		got, ok := marshalToolResult(r)
		if !ok {
			t.Errorf("%+v declined", r)
			continue
		}
		if want := sdkRaw(t, r); !bytes.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	declined := []*mcp.CallToolResult{
		{Content: text("x"), Meta: mcp.Meta{"k": 1}},
		{Content: []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}}},
		{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}},
		{Content: text("x"), StructuredContent: map[string]any{"a": 1}},
		{Content: text("x"), StructuredContent: json.RawMessage{}},
		{Content: text("x"), StructuredContent: json.RawMessage(`{"a":`)},
		{Content: text("x"), RequestState: "s"},
	}
	for _, r := range declined {
		if got, ok := marshalToolResult(r); ok {
			t.Errorf("%+v taken as %s", r, got)
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzToolResultAsTheSDKMarshalsIt: any text and any structured bytes
// the fast path takes come out as the SDK writes them.
func FuzzToolResultAsTheSDKMarshalsIt(f *testing.F) {
	f.Add("a<b>", `{"a":"\u2028"}`, false)
	f.Add("\xff", ` [ 1 , "x" ] `, true)
	f.Fuzz(func(t *testing.T, text, structured string, isError bool) {
		r := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
		if structured != "" {
			r.StructuredContent = json.RawMessage(structured)
		}
		got, ok := marshalToolResult(r)
		if !ok {
			if json.Valid([]byte(structured)) {
				t.Fatalf("declined valid structured content %q", structured)
			}
			return
		}
		if want := sdkRaw(t, r); !bytes.Equal(got, want) {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}
