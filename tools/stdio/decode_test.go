package stdio

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeMessage must give what jsonrpc.DecodeMessage gives, message and
// error, for every line that reaches it: one JSON value.
func TestDecodeMessageIsTheSDKs(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait_for_text","arguments":{"paneId":"%1"}}}`,
		`{"jsonrpc":"2.0","id":"a<b>","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":null,"method":""}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":null}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":[1,2]}`,
		`{"jsonrpc":"2.0","id":1,"Method":"x"}`,
		`{"JSONRPC":"2.0","id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","method":"y"}`,
		`{"jsonrpc":"2.0","id":1,"method":5}`,
		`{"jsonrpc":"2.0","id":true,"method":"x"}`,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`,
		`{"jsonrpc":"1.0","id":1,"method":"x"}`,
		`{"jsonrpc":2,"id":1,"method":"x"}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","error":5}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`,
		`{"jsonrpc":"2.0","result":{"a":1}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","extra":[{"deep":true}]}`,
		`{"jsonrpc":"2.0","id":1,"method":"\u0000\ud800é"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
		`  {"jsonrpc":"2.0","id":1,"method":"x"}  `,
		`[]`, `"x"`, `5`, `null`, `{}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 950) + strings.Repeat("]", 950) + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":"` + strings.Repeat("[", 1100) + `"}`,
	}
	parsed := 0
	for _, line := range lines {
		sameAsSDK(t, []byte(line))
		if _, ok := parseRequest([]byte(line)); ok {
			parsed++
		}
	}
	// Every request above that go-sdk takes and that nests no deeper
	// than the bound is parsed here, not handed to go-sdk.
	if parsed != 15 {
		t.Errorf("%d lines parsed here, want 15: the others went to go-sdk", parsed)
	}
}

func FuzzDecodeMessage(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"s","result":{}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !json.Valid(line) {
			return // the transport answers such a line itself
		}
		sameAsSDK(t, line)
	})
}

func sameAsSDK(t *testing.T, line []byte) {
	t.Helper()
	want, werr := jsonrpc.DecodeMessage(line)
	got, gerr := decodeMessage(line)
	if req, ok := parseRequest(line); ok {
		got, gerr = req, nil // compared without the fallback
	}
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(got, want) {
		t.Errorf("%q:\n got %#v, %v\nwant %#v, %v", line, got, gerr, want, werr)
	}
}
