package stdio

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"
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
