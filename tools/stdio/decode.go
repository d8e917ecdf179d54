package stdio

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	segjson "github.com/segmentio/encoding/json"
)

// decodeMessage is jsonrpc.DecodeMessage(line), for a line that is one
// JSON value. A request or notification is parsed here as go-sdk v1.8.0
// parses it (its internal/json: the same library, with the same flag, on
// the same wire struct): go-sdk reads every message through a decoder
// that takes a fresh 32 KiB buffer per value, to be cleared and collected
// (`perf`, list_sessions calls: 5% of the server's CPU went to
// DecodeMessage, under 1% goes here). Anything else (a
// response, a line go-sdk refuses, one nested near go-sdk's depth limit)
// goes to DecodeMessage itself, for its answer in its words.
func decodeMessage(line []byte) (jsonrpc.Message, error) {
	if req, ok := parseRequest(line); ok {
		return req, nil
	}
	return jsonrpc.DecodeMessage(line)
}

// parseRequest is the request or notification in line, as go-sdk would
// decode it; ok is false for any other line.
func parseRequest(line []byte) (req *jsonrpc.Request, ok bool) {
	if nestedDeeper(line, nestingForSDK) {
		return nil, false
	}
	var msg wireDecode
	if _, err := segjson.Parse(line, &msg, segjson.DontMatchCaseInsensitiveStructFields); err != nil ||
		msg.VersionTag != "2.0" || len(msg.Method) == 0 {
		return nil, false
	}
	id, err := jsonrpc.MakeID(msg.ID)
	if err != nil {
		return nil, false
	}
	var method string
	if _, err := segjson.Parse(msg.Method, &method, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, false
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: msg.Params}, true
}

// wireDecode is go-sdk's (internal/jsonrpc2): every field it decodes, so
// that a line it refuses (an "error" that is not an object, say) is
// refused here too, and goes to DecodeMessage.
type wireDecode struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *jsonrpc.Error  `json:"error,omitempty"`
}

// nestingForSDK is below go-sdk's limit on nesting (1000): a line nested
// deeper goes to go-sdk, which refuses it or not by its own count.
const nestingForSDK = 900

// nestedDeeper reports whether objects and arrays in data, JSON, nest
// deeper than limit.
func nestedDeeper(data []byte, limit int) bool {
	depth := 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = b == '\\'
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > limit {
				return true
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return false
}
