package stdio

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// closeBound is how long Close may take before a test calls it hung.
const closeBound = 10 * time.Second

// TestCloseJoinsBlockedReader checks that Close interrupts a line reader
// blocked on an input that is still open (SIGTERM with stdin open) and
// returns once it has ended.
func TestCloseJoinsBlockedReader(t *testing.T) {
	r, w, err := os.Pipe() // os.Pipe's files take read deadlines
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	tr := New(r, io.Discard)
	if _, err := tr.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- tr.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(closeBound):
		t.Fatalf("Close has not returned after %v with the reader blocked", closeBound)
	}
	select {
	case <-tr.readerDone:
	default:
		t.Error("Close returned before the reader ended")
	}
}

// TestCloseSaysWhenReaderCannotBeInterrupted checks that an input without
// read deadlines is reported rather than waited on for ever.
func TestCloseSaysWhenReaderCannotBeInterrupted(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	tr := New(r, io.Discard)
	if _, err := tr.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); !errors.Is(err, ErrReaderBlocked) {
		t.Errorf("Close = %v, want ErrReaderBlocked", err)
	}
	w.Close() // the reader ends with its input
	select {
	case <-tr.readerDone:
	case <-time.After(closeBound):
		t.Fatal("the reader did not end with its input")
	}
}

// TestStopAfterReadableTakesWhatWasWritten checks that the lines written
// before StopAfterReadable reach the SDK, even when its deadline has
// passed before the line reader first reads, that a line not yet whole
// is dropped, and that input then ends although the input stays open.
func TestStopAfterReadableTakesWhatWasWritten(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	if _, err := io.WriteString(w, `{"jsonrpc":"2.0","method":"notifications/one"}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/two"}`+"\n"+`{"jsonrpc":"2.0","meth`); err != nil {
		t.Fatal(err)
	}
	tr := New(r, io.Discard)
	tr.StopAfterReadable()
	time.Sleep(2 * stopReadGrace) // the deadline has passed: a read now fails untried
	conn, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeBound)
	defer cancel()
	for _, want := range []string{"notifications/one", "notifications/two"} {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("reading %s: %v", want, err)
		}
		if req, ok := msg.(*jsonrpc.Request); !ok || req.Method != want {
			t.Fatalf("got %#v, want %s", msg, want)
		}
	}
	if msg, err := conn.Read(ctx); !errors.Is(err, io.EOF) {
		t.Fatalf("after the lines written: %#v, %v; want io.EOF", msg, err)
	}
}
