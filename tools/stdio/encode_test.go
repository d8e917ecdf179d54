package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// encode must write what jsonrpc.EncodeMessage writes, byte for byte, for
// every message go-sdk hands a transport.
func TestEncodeIsEncodeMessage(t *testing.T) {
	results := []any{
		map[string]any{"content": []any{map[string]any{"type": "text", "text": "a <b> & \"c\"\n\u2028 é"}}},
		map[string]any{},
		[]int{1, 2},
		"plain",
		map[string]any{"output": strings.Repeat("line\tof text\n", 5000)},
	}
	ids := []any{float64(0), float64(-7), float64(1 << 53), "s", "<&>\u2028\"\\", ""}
	var msgs []jsonrpc.Message
	for _, raw := range ids {
		id, err := jsonrpc.MakeID(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			data, err := json.Marshal(r) // as go-sdk's NewResponse gives it
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, &jsonrpc.Response{ID: id, Result: data})
		}
		msgs = append(msgs,
			&jsonrpc.Response{ID: id, Error: errors.New("refused")},
			&jsonrpc.Response{ID: id, Result: json.RawMessage("{\n\"a\": 1\n}")}, // not compact: the long way
			&jsonrpc.Request{ID: id, Method: "ping"})
	}
	msgs = append(msgs, &jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"x":1}`)})
	for _, m := range msgs {
		want, werr := jsonrpc.EncodeMessage(m)
		got, gerr := encode(m)
		if !bytes.Equal(got, want) || (werr == nil) != (gerr == nil) {
			t.Errorf("%#v:\n encode %s (%v)\n   SDK %s (%v)", m, got, gerr, want, werr)
		}
	}
}

// FuzzEncode: for any result the SDK could marshal (any JSON value,
// compacted as encoding/json writes it) and any id, encode is
// EncodeMessage.
func FuzzEncode(f *testing.F) {
	f.Add(`{"a":"<x>"}`, "id", int64(3), true)
	f.Add(`[1,"\u2028"]`, "", int64(-1), false)
	f.Fuzz(func(t *testing.T, result, sid string, nid int64, numeric bool) {
		var v any
		if json.Unmarshal([]byte(result), &v) != nil {
			return
		}
		data, err := json.Marshal(v)
		if err != nil {
			return
		}
		raw := any(sid)
		if numeric {
			raw = float64(nid % (1 << 53))
		}
		id, err := jsonrpc.MakeID(raw)
		if err != nil {
			t.Fatal(err)
		}
		m := &jsonrpc.Response{ID: id, Result: data}
		want, werr := jsonrpc.EncodeMessage(m)
		got, gerr := encode(m)
		if !bytes.Equal(got, want) || (werr == nil) != (gerr == nil) {
			t.Fatalf("encode %s (%v)\n   SDK %s (%v)", got, gerr, want, werr)
		}
	})
}
