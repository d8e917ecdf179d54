package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzTransport feeds arbitrary bytes to the guarded stdio transport as
// its stdin and plays the SDK's side on the transport's connection,
// answering every request it receives. For each line of input:
//
//   - a line that is one JSON-RPC message, and nothing else, reaches the
//     SDK, and the SDK's connection reads it without error (an error there
//     ends the whole session);
//   - any other non-blank line gets exactly one error reply on stdout: one
//     line of JSON with jsonrpc "2.0", an id that is null, a string or a
//     number, and an error object with a parse or invalid-request code;
//   - once every request has been answered, the SDK's input closes: no id
//     stays pending (a pending id would hold the session open at EOF until
//     the drain timeout).
//
// Nothing panics, and errorReply and responseIDs hold up on arbitrary bytes.
//
// Run: go test -run '^$' -fuzz '^FuzzTransport$' -fuzztime 60s ./tools/stdio
func FuzzTransport(f *testing.F) {
	addCorpus(f)
	f.Fuzz(fuzzTransport)
}

func addCorpus(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_sessions","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"abc","method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e300,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\u0000b","method":"ping"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32000,"message":"x"}}`,
		`{"jsonrpc":"2.0","method":""}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","id":"x"}`,
		`{"jsonrpc":"1.0","id":3,"method":"ping"}`,
		`{"id":3,"method":"ping"}`,
		`{not json`,
		`[]`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`[1,`,
		`null`,
		`"jsonrpc"`,
		`42`,
		`{}`,
		`{"jsonrpc":"2.0"}`,
		"\x00",
		"\x00{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
		"\xc2\xa0{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\xc2\x85",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
		strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
		`{"jsonrpc":"2.0","id":4,"method":"ping","params":` + strings.Repeat(`{"a":`, 1100) + `1` + strings.Repeat(`}`, 1100) + `}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_shell_command","arguments":{"paneId":"%0","command":"#(touch x); echo ;\n"}}}`,
		"\n\n   \t\n",
	} {
		f.Add([]byte(s + "\n"))
	}
	// Found by fuzzing: a message followed by more on its line once ended
	// the session.
	f.Add([]byte(`{"jsonrpc":"2.0","method":""}0`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":2,"method":"ping"} x` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"))
	// Several lines in one stream, valid and not, without a final newline.
	f.Add([]byte("{not json\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n[]\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"))
	f.Add([]byte(`{"JSONRPC":"2.0","jsonrpc":"2.0","id":3,"method":"ping"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":3,"Method":"ping","method":"x"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":[1,2.5e3," "]}}`))
}

func fuzzTransport(t *testing.T, data []byte) {
	{
		// The pure helpers, on the raw bytes (newlines and all).
		responseIDs(data)
		if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 {
			checkErrorReply(t, errorReply(trimmed, errors.New("x")))
		}

		// What the guard should do, line by line.
		var wantPassed, wantAnswered int
		for _, line := range bytes.Split(data, []byte("\n")) {
			line = bytes.TrimSpace(line)
			if len(line) == 0 {
				continue
			}
			if oneMessage(line) {
				wantPassed++
			} else {
				wantAnswered++
			}
		}

		// The guard, with the SDK's stdio connection reading what it passes
		// on and answering each request through the guard, as the server does.
		var out bytes.Buffer
		g := New(bytes.NewReader(data), &out)
		conn := &connection{g: g, closed: make(chan struct{})}
		defer conn.Close()
		type sdkResult struct {
			read int
			err  error
		}
		sdkDone := make(chan sdkResult, 1)
		sdkFailed := make(chan struct{})
		go func() {
			var r sdkResult
			defer func() { sdkDone <- r }()
			ctx := context.Background()
			for {
				msg, err := conn.Read(ctx)
				if err != nil {
					if !errors.Is(err, io.EOF) {
						r.err = err
						g.ForceClose() // unblocks the guard
						close(sdkFailed)
					}
					return
				}
				r.read++
				if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
					resp := &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}
					if err := conn.Write(ctx, resp); err != nil {
						r.err = err
						close(sdkFailed)
						return
					}
				}
			}
		}()
		g.readLines() // returns at EOF of data, after Stop

		select {
		case <-g.drained:
		case <-sdkFailed: // reported below
			g.ForceClose()
		case <-time.After(10 * time.Second):
			g.mu.Lock()
			pending := len(g.pending)
			g.mu.Unlock()
			g.ForceClose()
			t.Errorf("the SDK's input did not close after every request was answered: %d ids still pending", pending)
		}
		var r sdkResult
		select {
		case r = <-sdkDone:
		case <-time.After(10 * time.Second):
			t.Fatal("the SDK's reader did not end")
		}
		if r.err != nil {
			t.Errorf("the SDK's connection failed on what the guard passed on (this ends the session): %v", r.err)
		}
		if r.read != wantPassed {
			t.Errorf("the SDK read %d messages, want %d (one per valid line)", r.read, wantPassed)
		}

		// Stdout: one error reply per bad line, then the SDK's replies.
		lines := bytes.SplitAfter(out.Bytes(), []byte("\n"))
		if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
			lines = lines[:n-1]
		}
		var answered int
		for _, l := range lines {
			var probe struct {
				Error json.RawMessage `json:"error"`
			}
			if json.Unmarshal(l, &probe) == nil && probe.Error != nil {
				answered++
				checkErrorReply(t, l)
			}
		}
		if answered != wantAnswered {
			t.Errorf("%d error replies, want %d (one per line that is not one JSON-RPC message)\nstdout:\n%s", answered, wantAnswered, out.Bytes())
		}
	}
}

// oneMessage reports whether line (trimmed, non-empty) is exactly one
// JSON-RPC message, not a batch: what the guard must pass on.
func oneMessage(line []byte) bool {
	if !json.Valid(line) || line[0] == '[' {
		return false
	}
	_, err := jsonrpc.DecodeMessage(line)
	return err == nil
}

// checkErrorReply checks one error reply the guard wrote.
func checkErrorReply(t *testing.T, reply []byte) {
	t.Helper()
	body, ok := bytes.CutSuffix(reply, []byte("\n"))
	if !ok || bytes.Contains(body, []byte("\n")) {
		t.Fatalf("error reply is not one line: %q", reply)
	}
	var r struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    *int64 `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("error reply is not JSON: %v: %q", err, reply)
	}
	if r.JSONRPC != "2.0" || r.Error == nil || r.Error.Code == nil || r.Error.Message == "" {
		t.Fatalf("error reply lacks jsonrpc 2.0, an error code or a message: %q", reply)
	}
	if c := *r.Error.Code; c != jsonrpc.CodeParseError && c != jsonrpc.CodeInvalidRequest {
		t.Fatalf("error reply has code %d: %q", c, reply)
	}
	var id any
	if err := json.Unmarshal(r.ID, &id); err != nil {
		t.Fatalf("error reply has no id (null at least): %q", reply)
	}
	switch id.(type) {
	case nil, string, float64:
	default:
		t.Fatalf("error reply has id of type %T: %q", id, reply)
	}
}
