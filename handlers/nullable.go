package handlers

import (
	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// The seed schemas write optional values as anyOf [T, null], which the
// generator turns into interface{} fields. These helpers are the only way
// handlers fill them, so each holds a value of the schema's type or nil —
// never "" or 0 standing in for null.

// nullableCursor returns a cursor for an anyOf [cursor, null] field.
func nullableCursor(c string) any { return c }

// wireFailure maps a stream's failure to the seed contract's streamFailure
// enum: the one place the live layer's reasons meet the wire's, so that a
// renamed value in the schema breaks the build here.
func wireFailure(f live.Failure) any {
	switch f {
	case live.HubClosed:
		return gen.WaitForTextOutputStreamFailure_0_HubClosed
	case live.Expired:
		return gen.WaitForTextOutputStreamFailure_0_Expired
	case live.TopologyChanged:
		return gen.WaitForTextOutputStreamFailure_0_TopologyChanged
	case live.EventsDropped:
		return gen.WaitForTextOutputStreamFailure_0_EventsDropped
	}
	return gen.WaitForTextOutputStreamFailure_0_ConnectionLost
}

// nullableStatus returns an exit status for an anyOf [integer, null] field.
func nullableStatus(status *int) any {
	if status == nil {
		return nil
	}
	return *status
}
