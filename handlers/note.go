package handlers

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// A note is a sentence for the agent that the output schema has no field
// for: why a wait could not watch the pane, say. The catalogue puts it in
// the result's text ahead of the structured content.
type noteKey struct{}

type notes struct {
	mu    sync.Mutex
	lines []string
}

// WithNotes returns a context in which handlers can leave notes, and a
// function that returns them once the handler is done ("" for none).
func WithNotes(ctx context.Context) (context.Context, func() string) {
	n := &notes{}
	return context.WithValue(ctx, noteKey{}, n), func() string {
		n.mu.Lock()
		defer n.mu.Unlock()
		return strings.Join(n.lines, "\n")
	}
}

// note leaves a note, if the caller asked for notes.
func note(ctx context.Context, format string, a ...any) {
	if n, ok := ctx.Value(noteKey{}).(*notes); ok {
		n.mu.Lock()
		n.lines = append(n.lines, fmt.Sprintf(format, a...))
		n.mu.Unlock()
	}
}
