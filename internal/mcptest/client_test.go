package mcptest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// replyBound bounds a reply the fake server has already sent.
const replyBound = 10 * time.Second

// fakeServer reads requests from r and, once it has two, answers them in
// reverse order with a notification first; then it ends its output.
func fakeServer(t *testing.T, r io.Reader, w io.WriteCloser) {
	defer w.Close()
	sc := bufio.NewScanner(r)
	var ids []json.RawMessage
	for len(ids) < 2 && sc.Scan() {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			t.Errorf("fake server: %v", err)
			return
		}
		if req.ID != nil {
			ids = append(ids, req.ID)
		}
	}
	io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p"}}`+"\n")
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(ids[1])+`,"error":{"code":-32601,"message":"no such method"}}`+"\n")
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(ids[0])+`,"result":{"ok":true}}`+"\n")
	io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`+"\n")
}

func TestClientMatchesRepliesByID(t *testing.T) {
	toServer, fromClient := io.Pipe()
	fromServer, toClient := io.Pipe()
	go fakeServer(t, toServer, toClient)
	c := New(fromServer, fromClient)

	first, err := c.Start("first", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Send(`{"jsonrpc":"2.0","id":"mine","method":"second"}`); err != nil {
		t.Fatal(err)
	}

	res, err := c.Result(first, replyBound)
	if err != nil || !strings.Contains(string(res), `"ok":true`) {
		t.Errorf("result of %s = %s, %v", first, res, err)
	}
	var rpcErr *RPCError
	if _, err := c.Result(`"mine"`, replyBound); !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
		t.Errorf("result of \"mine\" = %v, want the JSON-RPC error -32601", err)
	}
	<-c.Done()
	if n := c.Notifications(); len(n) != 1 || !strings.Contains(string(n[0]), "progressToken") {
		t.Errorf("notifications = %s", n)
	}
	if n := c.NullIDReplies(); len(n) != 1 {
		t.Errorf("null-id replies = %s", n)
	}
	if _, err := c.Wait("99", replyBound); !errors.Is(err, ErrOutputEnded) {
		t.Errorf("wait for a reply never sent, after the output ended = %v, want ErrOutputEnded", err)
	}
}

func TestClientWaitTimesOut(t *testing.T) {
	fromServer, toClient := io.Pipe()
	defer toClient.Close()
	c := New(fromServer, io.Discard)
	var te *TimeoutError
	if _, err := c.Wait("1", 10*time.Millisecond); !errors.As(err, &te) || te.ID != "1" {
		t.Errorf("Wait with no reply = %v, want a TimeoutError for 1", err)
	}
}
