// This file holds the tools of the catalogue family Typing and reading
// (send_keys, capture_pane).

package handlers

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/echo"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// maxTypedBytes bounds the text of one send_keys call, as the string form's
// schema does.
const maxTypedBytes = 16384

// SendKeys types into a pane: a string (a key name alone, or text then
// Enter, unless enter says otherwise) or a sequence of text and keys, all from one tmux
// client. It refuses dead panes, panes in a mode such as copy mode (where
// keys would drive the mode, not the program) and this server's own pane,
// unless force. The cursor it returns is taken before the first key goes.
func (h *Handlers) SendKeys(ctx context.Context, in gen.SendKeysInput) (gen.SendKeysOutput, error) {
	items, err := keyItems(in)
	if err != nil {
		return gen.SendKeysOutput{}, err
	}
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return gen.SendKeysOutput{}, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, in.Force, "type into"); err != nil {
		return gen.SendKeysOutput{}, err
	}
	if p.Dead {
		return gen.SendKeysOutput{}, wording.PaneDead(p)
	}
	if p.InMode && !in.Force {
		return gen.SendKeysOutput{}, wording.InMode(id, "send the keys to the mode anyway")
	}
	out := gen.SendKeysOutput{PaneID: string(id), Sent: describeSent(items)}
	// Watch the pane before the first key, so the cursor is before
	// everything the keys cause.
	if s, err := h.hub.Watch(ctx, id); err == nil {
		cursor := s.Cursor(s.End())
		out.Cursor = &cursor
	} else if waiting.NoStream(err) {
		note(ctx, wording.NoteUnwatchable(string(id), err))
	} else {
		return gen.SendKeysOutput{}, h.explain(ctx, err)
	}
	// Record the keys before sending them, so a wait already running
	// cannot see their echo before it knows to discount it.
	h.echo.TypedItems(string(id), p.PID, items)
	if err := h.tmux.SendSequence(ctx, id, items); err != nil {
		return gen.SendKeysOutput{}, h.explain(ctx, err)
	}
	return out, nil
}

// keyItems turns send_keys' keys — a string or a sequence — into what to
// send, checking every key name.
func keyItems(in gen.SendKeysInput) ([]tmuxctl.KeyItem, error) {
	if s, ok := in.Keys.(string); ok {
		if len(s) > maxTypedBytes {
			return nil, wording.KeysTooLong("keys holds", len(s), maxTypedBytes)
		}
		return echo.StringItems(s, in.Literal, in.Enter), nil
	}
	raw, err := json.Marshal(in.Keys)
	if err != nil {
		return nil, wording.BadKeys(err)
	}
	var seq []struct {
		Text *string `json:"text"`
		Key  *string `json:"key"`
	}
	if err := json.Unmarshal(raw, &seq); err != nil || len(seq) == 0 {
		return nil, wording.KeysShape()
	}
	items := make([]tmuxctl.KeyItem, len(seq))
	total := 0
	for i, it := range seq {
		switch {
		case (it.Text == nil) == (it.Key == nil):
			return nil, wording.KeyItemShape(i)
		case it.Text != nil:
			total += len(*it.Text)
			items[i] = tmuxctl.KeyItem{Text: *it.Text}
		default:
			if _, err := tmuxctl.ParseKey(*it.Key); err != nil {
				return nil, wording.BadKeyItem(i)
			}
			items[i] = tmuxctl.KeyItem{Key: *it.Key}
		}
	}
	if total > maxTypedBytes {
		return nil, wording.KeysTooLong("keys: the text items hold", total, maxTypedBytes)
	}
	return items, nil
}

// describeSent says what went, in order: text "…" or key <name>.
func describeSent(items []tmuxctl.KeyItem) string {
	if len(items) == 0 {
		return "nothing"
	}
	parts := make([]string, len(items))
	for i, it := range items {
		if it.Key != "" {
			parts[i] = "key " + it.Key
		} else {
			parts[i] = "text " + strconv.Quote(it.Text)
		}
	}
	return strings.Join(parts, ", ")
}

// CapturePane returns what a pane shows, or rows of its history, keeping the
// newest lines within the line and byte limits and reporting what it cut.
func (h *Handlers) CapturePane(ctx context.Context, in gen.CapturePaneInput) (gen.CapturePaneOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	// One tmux command list reads the pane and its rows.
	p, lines, err := h.tmux.CaptureWithPane(ctx, id, tmuxctl.CaptureOptions{
		Start:       in.Start,
		End:         in.End,
		JoinWrapped: in.JoinWrapped,
		Escapes:     in.Escapes,
	})
	if err != nil {
		return gen.CapturePaneOutput{}, h.explain(ctx, err)
	}
	// tmux silently moves rows outside history+screen to the nearest edge;
	// clamp here too so the result can say it did.
	first, last := -p.HistorySize, p.Height-1
	start, startClamped := clampRow(in.Start, first, last)
	end, endClamped := clampRow(in.End, first, last)
	if start != nil && end != nil && *start > *end {
		return gen.CapturePaneOutput{}, wording.RowsReversed(*start, *end, first, last, id)
	}
	lines = clip.TrimBlankTail(lines)
	kept := clip.Newest(lines, h.limits.lines(in.MaxLines), h.limits.MaxBytes)
	return intoCapturePane(kept.Accounting, gen.CapturePaneOutput{
		PaneID:       string(id),
		Text:         kept.Text,
		TotalLines:   len(lines),
		RangeClamped: startClamped || endClamped,
	}), nil
}

func clampRow(row *int, first, last int) (*int, bool) {
	if row == nil {
		return nil, false
	}
	v := min(max(*row, first), last)
	return &v, v != *row
}
