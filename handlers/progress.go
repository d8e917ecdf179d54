package handlers

import (
	"context"
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

// reportProgress sends a progress notification every progressInterval
// until the returned stop is called, if the client asked for them.
func reportProgress(ctx context.Context, total time.Duration, message string) (stop func()) {
	p, _ := ctx.Value(progressKey{}).(Progress)
	if p == nil {
		return func() {}
	}
	start := time.Now()
	t := time.NewTicker(progressInterval)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-t.C:
				p(float64(now.Sub(start).Milliseconds()), float64(total.Milliseconds()), message)
			}
		}
	}()
	return func() {
		t.Stop()
		close(done)
	}
}
