package stdio

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestShortcutTakesCallsOnceInitialized drives a transport with a
// shortcut that claims method "claimed": before the SDK has answered
// initialize such a call goes to the SDK (which refuses it there); after,
// the shortcut answers it on the output, a result as a result and an
// error as a JSON-RPC error; a notifications/cancelled naming one of its
// calls cancels that call's context and is passed on; at EOF the
// session waits for the shortcut's call in flight.
func TestShortcutTakesCallsOnceInitialized(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := New(inR, outW)
	cancelled := make(chan struct{})
	tr.SetShortcut(func(method string, params json.RawMessage) (func(context.Context) (any, error), bool) {
		if method != "claimed" {
			return nil, false
		}
		return func(ctx context.Context) (any, error) {
			switch string(params) {
			case `"wait"`:
				<-ctx.Done()
				close(cancelled)
				return map[string]string{"ended": "cancelled"}, nil
			case `"fail"`:
				return nil, &jsonrpc.Error{Code: 123, Message: "refused <here>"}
			}
			return map[string]any{"echo": params, "html": "<&>"}, nil
		}, true
	})
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(outR)
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	toSDK := func(want string) jsonrpc.Message {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), closeBound)
		defer cancel()
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("SDK read: %v", err)
		}
		if req, ok := msg.(*jsonrpc.Request); !ok || req.Method != want {
			t.Fatalf("the SDK got %#v, want a %s", msg, want)
		}
		return msg
	}
	output := func(want string) {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("output ended: %v", lines.Err())
		}
		if got := lines.Text(); got != want {
			t.Fatalf("output %s\nwant      %s", got, want)
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"claimed","params":"early"}`)
	toSDK("claimed")
	send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}`)
	init := toSDK("initialize").(*jsonrpc.Request)
	go conn.Write(context.Background(), &jsonrpc.Response{ID: init.ID, Result: json.RawMessage(`{}`)})
	output(`{"jsonrpc":"2.0","id":2,"result":{}}`)

	send(`{"jsonrpc":"2.0","id":3,"method":"claimed","params":"x"}`)
	output(`{"jsonrpc":"2.0","id":3,"result":{"echo":"x","html":"<&>"}}`)
	send(`{"jsonrpc":"2.0","id":"f","method":"claimed","params":"fail"}`)
	output(`{"jsonrpc":"2.0","id":"f","error":{"code":123,"message":"refused <here>"}}`)
	send(`{"jsonrpc":"2.0","method":"claimed","params":"x"}`) // a notification: the SDK's
	toSDK("claimed")
	send(`{"jsonrpc":"2.0","id":4,"method":"other","params":{}}`)
	toSDK("other")

	send(`{"jsonrpc":"2.0","id":"w","method":"claimed","params":"wait"}`)
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`)
	toSDK("notifications/cancelled")
	select {
	case <-cancelled:
	case <-time.After(closeBound):
		t.Fatal("the cancellation did not reach the shortcut's call")
	}
	output(`{"jsonrpc":"2.0","id":"w","result":{"ended":"cancelled"}}`)

	// At EOF the SDK's input stays open while a request is unanswered:
	// id 1 and 4 are the SDK's.
	inW.Close()
	for _, id := range []int64{1, 4} {
		go conn.Write(context.Background(), &jsonrpc.Response{ID: mustID(t, float64(id)), Result: json.RawMessage(`{}`)})
		if !lines.Scan() || !strings.Contains(lines.Text(), `"result":{}`) {
			t.Fatalf("no reply to %d: %q", id, lines.Text())
		}
	}
	select {
	case <-tr.Drained():
	case <-time.After(closeBound):
		t.Fatal("the session did not end once every request was answered")
	}
}
