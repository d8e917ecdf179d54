package waiting

import (
	"context"
	"sync"
	"time"
)

// A Progress reports how far a wait has come: elapsed and total in
// milliseconds, and a short message. The transport layer supplies one
// when the client asked for progress notifications.
type Progress func(elapsedMs, totalMs float64, message string)

type progressKey struct{}

// WithProgress returns a context whose waits report to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressInterval is how often a long wait tells the client it is alive.
const progressInterval = time.Second

// reportProgress calls the context's Progress every interval until the
// returned stop is called, if the client asked for progress. stop waits
// for the ticker's goroutine to return, so once it has returned no report
// is being or will be sent; it may be called more than once.
func reportProgress(ctx context.Context, total time.Duration, message string, interval time.Duration) (stop func()) {
	p, _ := ctx.Value(progressKey{}).(Progress)
	if p == nil {
		return func() {}
	}
	start := time.Now()
	t := time.NewTicker(interval)
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-t.C:
				select {
				case <-done: // stop was called while the tick was pending
					return
				default:
				}
				p(float64(now.Sub(start).Milliseconds()), float64(total.Milliseconds()), message)
			}
		}
	}()
	return sync.OnceFunc(func() {
		t.Stop()
		close(done)
		<-exited
	})
}
