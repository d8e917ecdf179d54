package handlers

import (
	"context"
	"errors"
	"fmt"
	"github.com/tmux-mcp/tmux-mcp/internal/clip"
	"strings"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// ListBuffers lists the server's paste buffers, newest first.
func (h *Handlers) ListBuffers(ctx context.Context, in gen.ListBuffersInput) (gen.ListBuffersOutput, error) {
	bufs, err := h.tmux.ListBuffers(ctx)
	if err != nil && !errors.Is(err, tmuxctl.ErrServerGone) {
		return gen.ListBuffersOutput{}, h.explain(ctx, err)
	}
	rows := make([]gen.BufferView, len(bufs))
	for i, b := range bufs {
		rows[i] = gen.BufferView{Name: b.Name, Size: b.Size, CreatedUnix: int(b.Created.Unix())}
	}
	return gen.ListBuffersOutput{Buffers: rows}, nil
}

// ShowBuffer returns a buffer's contents within the byte ceiling.
func (h *Handlers) ShowBuffer(ctx context.Context, in gen.ShowBufferInput) (gen.ShowBufferOutput, error) {
	data, err := h.tmux.BufferData(ctx, in.Name)
	if err != nil {
		return gen.ShowBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	full := strings.ToValidUTF8(string(data), "\uFFFD")
	text := full
	if len(text) > h.limits.MaxBytes {
		text = clip.ValidPrefix(text, h.limits.MaxBytes)
	}
	return gen.ShowBufferOutput{
		Name:          in.Name,
		Text:          text,
		Size:          len(data),
		ReturnedBytes: len(text),
		OmittedBytes:  len(full) - len(text),
		InvalidUtf8:   !utf8.Valid(data),
	}, nil
}

// LoadBuffer sets a buffer's contents exactly.
func (h *Handlers) LoadBuffer(ctx context.Context, in gen.LoadBufferInput) (gen.LoadBufferOutput, error) {
	if err := refusePrivateBuffer(in.Name); err != nil {
		return gen.LoadBufferOutput{}, err
	}
	if err := h.tmux.LoadBuffer(ctx, in.Name, []byte(in.Text)); err != nil {
		return gen.LoadBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	return gen.LoadBufferOutput{Name: in.Name, Size: len(in.Text)}, nil
}

// DeleteBuffer deletes a buffer.
func (h *Handlers) DeleteBuffer(ctx context.Context, in gen.DeleteBufferInput) (gen.DeleteBufferOutput, error) {
	if err := refusePrivateBuffer(in.Name); err != nil {
		return gen.DeleteBufferOutput{}, err
	}
	if err := h.tmux.DeleteBuffer(ctx, in.Name); err != nil {
		return gen.DeleteBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	return gen.DeleteBufferOutput{Name: in.Name}, nil
}

// PasteBuffer pastes a buffer into a pane, bracketed if the program asked
// for bracketed paste, and returns a cursor from before the paste.
func (h *Handlers) PasteBuffer(ctx context.Context, in gen.PasteBufferInput) (gen.PasteBufferOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.typable(ctx, id, in.Force)
	if err != nil {
		return gen.PasteBufferOutput{}, err
	}
	data, err := h.tmux.BufferData(ctx, in.Name)
	if err != nil {
		return gen.PasteBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	cursor := h.cursorBefore(ctx, id)
	h.echo.Typed(string(id), p.PID, string(data), true, in.Enter)
	if err := h.tmux.PasteBuffer(ctx, id, in.Name, in.Delete, in.Enter); err != nil {
		return gen.PasteBufferOutput{}, h.explainBuffer(ctx, err, in.Name)
	}
	return gen.PasteBufferOutput{PaneID: in.PaneID, Name: in.Name, Deleted: in.Delete, Enter: in.Enter, Cursor: cursor}, nil
}

// PasteText types text into a pane exactly, through a private buffer that
// never outlives the call, and returns a cursor from before its first byte.
func (h *Handlers) PasteText(ctx context.Context, in gen.PasteTextInput) (gen.PasteTextOutput, error) {
	id := tmuxctl.PaneID(in.PaneID)
	p, err := h.typable(ctx, id, in.Force)
	if err != nil {
		return gen.PasteTextOutput{}, err
	}
	cursor := h.cursorBefore(ctx, id)
	h.echo.Typed(string(id), p.PID, in.Text, true, in.Enter)
	if err := h.tmux.PasteText(ctx, id, []byte(in.Text), in.Enter); err != nil {
		return gen.PasteTextOutput{}, h.explain(ctx, err)
	}
	return gen.PasteTextOutput{PaneID: in.PaneID, Bytes: len(in.Text), Enter: in.Enter, Cursor: cursor}, nil
}

// typable returns pane id if text may be typed into it: it exists, is not
// this server's own pane, is alive and not in a mode (unless force).
func (h *Handlers) typable(ctx context.Context, id tmuxctl.PaneID, force bool) (tmuxctl.Pane, error) {
	p, err := h.tmux.Pane(ctx, id)
	if err != nil {
		return p, h.explain(ctx, err)
	}
	if err := h.refuseOwn(id, force, "paste into"); err != nil {
		return p, err
	}
	if p.Dead {
		return p, fmt.Errorf("pane %s is dead (its program exited%s); nothing reads input there — use a new pane", id, exitSuffix(p))
	}
	if p.InMode && !force {
		return p, fmt.Errorf("pane %s is in copy mode (or another tmux mode), so a paste would go to the mode, not the program; pass force:true to paste anyway, or send_keys \"q\" with enter:false to leave copy mode", id)
	}
	return p, nil
}

// cursorBefore returns a cursor at the end of pane id's stream now, before
// anything this call causes; nil (with a note) if it cannot be watched.
func (h *Handlers) cursorBefore(ctx context.Context, id tmuxctl.PaneID) any {
	s, err := h.hub.Watch(ctx, id)
	if err != nil {
		note(ctx, "cursor is null: %v", err)
		return nil
	}
	return nullableCursor(s.Cursor(s.End()))
}

// explainBuffer words a missing buffer.
func (h *Handlers) explainBuffer(ctx context.Context, err error, name string) error {
	if errors.Is(err, tmuxctl.ErrNoBuffer) {
		return fmt.Errorf("buffer %q does not exist; list_buffers shows the buffers there are", name)
	}
	return h.explain(ctx, err)
}

// refusePrivateBuffer refuses the names of paste_text's private buffers: a
// buffer a caller made under such a name would be deleted by the startup
// sweep of a later tmux-mcp, and one of ours must not be removed under a
// paste that is using it.
func refusePrivateBuffer(name string) error {
	if strings.HasPrefix(name, tmuxctl.PasteBufferPrefix) {
		return fmt.Errorf("name %s: buffer names starting with %s are tmux-mcp's private paste buffers; choose another name", name, tmuxctl.PasteBufferPrefix)
	}
	return nil
}
