package waiting

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestProgressStopJoins checks that once stop returns no progress report
// is being sent or will be: a report still in flight when the wait ends
// would reach the client after the call's result.
func TestProgressStopJoins(t *testing.T) {
	var mu sync.Mutex
	var events []string
	entered := make(chan struct{}, 1)
	p := Progress(func(_, _ float64, _ string) {
		select {
		case entered <- struct{}{}:
		default:
		}
		time.Sleep(50 * time.Millisecond) // a slow client write
		mu.Lock()
		events = append(events, "progress")
		mu.Unlock()
	})
	ctx := WithProgress(context.Background(), p)
	stop := reportProgress(ctx, time.Minute, "test", time.Millisecond)
	<-entered // a report is being sent
	stop()
	mu.Lock()
	events = append(events, "result")
	mu.Unlock()
	time.Sleep(100 * time.Millisecond) // room for a report that should not come
	mu.Lock()
	defer mu.Unlock()
	if events[len(events)-1] != "result" {
		t.Errorf("a progress report followed the result: %v", events)
	}
	stop() // a second stop is harmless
}
