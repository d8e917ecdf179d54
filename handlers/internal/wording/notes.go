package wording

import (
	"fmt"
)

// Notes are sentences for the agent that a result's schema has no field
// for; the catalogue puts them in the result's text.

// NoteUnwatchable says why a result's cursor is null.
func NoteUnwatchable(pane string, err error) string {
	return fmt.Sprintf("cursor is null: the output of pane %s cannot be watched (%s)", pane, Reason(err))
}

// NoteNotStreaming says why capture_since answered without a stream.
func NoteNotStreaming(err error) string { return "streaming is false: " + Reason(err) }

// NoteSlowToWatch says why a wait timed out before it watched the pane.
func NoteSlowToWatch(err error) string {
	return "timed out while starting to watch the pane: " + Reason(err)
}

// NoteNoStream says why a wait answered no_stream.
func NoteNoStream(err error) string { return "no_stream: " + Reason(err) }

// NoteQuietOverTimeout says that a quiet period longer than the timeout
// can only time out.
func NoteQuietOverTimeout(quietMs, timeoutMs int) string {
	return fmt.Sprintf("quietMs (%d) is longer than the timeout enforced (%d ms): the wait can only time out", quietMs, timeoutMs)
}
