package live

import (
	"context"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// sweepBuffers deletes the private paste buffers of instances that no
// longer run (killed between loading a buffer and pasting it).
func (h *Hub) sweepBuffers(ctx context.Context) {
	bufs, err := h.client.ListBuffers(ctx)
	if err != nil {
		return
	}
	for _, b := range bufs {
		if pid, ok := tmuxctl.PasteBufferOwner(b.Name); ok && !processAlive(pid) {
			h.client.DeleteBuffer(ctx, b.Name)
		}
	}
}
