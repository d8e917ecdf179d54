package workers

import (
	"sync"
	"testing"
	"time"
)

// Functions run at once and side by side: none waits for another to end,
// however many are blocked.
func TestGoNeverQueues(t *testing.T) {
	p := New()
	release := make(chan struct{})
	var started sync.WaitGroup
	const n = 50
	started.Add(n)
	for range n {
		p.Go(func() {
			started.Done()
			<-release
		})
	}
	done := make(chan struct{})
	go func() { started.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("not every function started while the others were blocked")
	}
	close(release)
}

// A goroutine that finished its function waits for the next: a hand-over
// to an idle goroutine (what Go tries first) succeeds once the first
// function has returned.
func TestIdleGoroutineIsReused(t *testing.T) {
	p := New()
	first := make(chan struct{})
	p.Go(func() { close(first) })
	<-first
	deadline := time.Now().Add(10 * time.Second)
	for {
		ran := make(chan struct{})
		select {
		case p.work <- func() { close(ran) }:
			<-ran
			return
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the goroutine that ran the first function never took another")
		}
		time.Sleep(time.Millisecond)
	}
}
