package stdio

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkRaw marshals v as go-sdk's jsonrpc2 makes a response's result:
// an encoder that does not escape HTML, its newline trimmed.
func sdkRaw(t *testing.T, v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func mustID(t *testing.T, v any) jsonrpc.ID {
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// encodeResult writes every response it takes exactly as
// jsonrpc.EncodeMessage does, and leaves the rest to it.
func TestEncodeResultAsTheSDK(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "a<b>&c", "line\nnext\ttab", "日本語 \u2028 \u2029", "\x01\x7f", `"quoted" \back\`, "\xff\xfe"}
	ids := []int64{0, 1, -1, 42, 1 << 53, -(1 << 53)} // ids arrive as JSON numbers: float64
	taken := 0
	for i := range 300 {
		text := texts[r.IntN(len(texts))] + texts[r.IntN(len(texts))]
		res := &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: text}},
			StructuredContent: map[string]any{"n": r.IntN(1000), "s": text},
			IsError:           i%7 == 0,
		}
		resp := &jsonrpc.Response{ID: mustID(t, float64(ids[i%len(ids)])), Result: sdkRaw(t, res)}
		want, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := encodeResult(resp)
		if !ok {
			t.Fatalf("a result for id %d was left to EncodeMessage", ids[i%len(ids)])
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("id %d:\n got %s\nwant %s", ids[i%len(ids)], got, want)
		}
		taken++
	}
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Response{ID: mustID(t, "a<b"), Result: json.RawMessage(`{}`)},
		&jsonrpc.Response{ID: mustID(t, 1.0), Error: &jsonrpc.Error{Code: 1, Message: "no"}},
		&jsonrpc.Response{ID: mustID(t, 1.0), Result: json.RawMessage(`[1]`)},
		&jsonrpc.Response{ID: mustID(t, 1.0)},
		&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{}`)},
	} {
		if got, ok := encodeResult(msg); ok {
			t.Errorf("%#v encoded here as %s; want it left to EncodeMessage", msg, got)
		}
	}
}
