package tmuxctl

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"
)

// A Buffer is one tmux paste buffer.
type Buffer struct {
	Name    string
	Size    int // bytes
	Created time.Time
}

var bufferFormat = format{"buffer_name", "buffer_size", "buffer_created"}

// ListBuffers returns the server's paste buffers, newest first.
func (c *Client) ListBuffers(ctx context.Context) ([]Buffer, error) {
	rows, err := c.list(ctx, bufferFormat, "list-buffers")
	if err != nil {
		return nil, err
	}
	bufs := make([]Buffer, 0, len(rows))
	for _, r := range rows {
		size, _ := strconv.Atoi(r["buffer_size"])
		created, _ := strconv.ParseInt(r["buffer_created"], 10, 64)
		bufs = append(bufs, Buffer{Name: r["buffer_name"], Size: size, Created: time.Unix(created, 0).UTC()})
	}
	return bufs, nil
}

// ErrNoBuffer means a paste buffer of that name does not exist.
var ErrNoBuffer = errors.New("no such buffer")

// BufferData returns the exact bytes of buffer name (save-buffer to the
// client's standard output, which tmux writes unescaped).
func (c *Client) BufferData(ctx context.Context, name string) ([]byte, error) {
	out, err := c.command(ctx, "save-buffer", "-b", name, "-")
	if err != nil {
		return nil, noBuffer(err)
	}
	return []byte(out), nil
}

// LoadBuffer sets buffer name to data, exactly: the bytes go through the
// client's standard input (load-buffer -), never through tmux's command
// parser, so no length limit of a command and no character is special.
func (c *Client) LoadBuffer(ctx context.Context, name string, data []byte) error {
	if data == nil {
		data = []byte{}
	}
	_, err := c.commandsWithInput(ctx, data, []string{"load-buffer", "-b", name, "-"})
	return err
}

// DeleteBuffer deletes buffer name.
func (c *Client) DeleteBuffer(ctx context.Context, name string) error {
	_, err := c.command(ctx, "delete-buffer", "-b", name)
	return noBuffer(err)
}

// PasteBuffer pastes buffer name into pane p. Line feeds become carriage
// returns, as typing them would; tmux wraps the text in bracketed-paste
// markers if the program in the pane turned that mode on, and sends it
// bare otherwise. del deletes the buffer after pasting; enter presses
// Enter after it, in the same tmux client.
func (c *Client) PasteBuffer(ctx context.Context, p PaneID, name string, del, enter bool) error {
	argv := []string{"paste-buffer", "-p", "-b", name, "-t", string(p)}
	if del {
		argv = append(argv, "-d")
	}
	cmds := [][]string{argv}
	if enter {
		cmds = append(cmds, []string{"send-keys", "-t", string(p), "Enter"})
	}
	_, err := c.commands(ctx, cmds...)
	return noBuffer(err)
}

// PasteBufferPrefix starts the name of every private paste buffer:
// tmux-mcp-paste-<pid>-<nonce>, so that a later instance can delete one
// that an instance killed mid-paste left behind.
const PasteBufferPrefix = "tmux-mcp-paste-"

// PasteBufferOwner returns the process id in a private paste buffer's name.
func PasteBufferOwner(name string) (pid int, ok bool) {
	rest, ok := strings.CutPrefix(name, PasteBufferPrefix)
	if !ok {
		return 0, false
	}
	pidText, _, _ := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0
}

// PasteText pastes text into pane p through a private buffer named for
// this process and a nonce, which is deleted whatever happens: paste-buffer
// -d deletes it as it pastes, and every way out before that deletes it too.
func (c *Client) PasteText(ctx context.Context, p PaneID, text []byte, enter bool) error {
	name := PasteBufferPrefix + strconv.Itoa(os.Getpid()) + "-" + Nonce(8)
	if err := c.LoadBuffer(ctx, name, text); err != nil {
		c.dropBuffer(name)
		return err
	}
	if err := c.PasteBuffer(ctx, p, name, true, enter); err != nil {
		c.dropBuffer(name)
		return err
	}
	return nil
}

// dropBuffer deletes a private buffer on an error path: on its own clock,
// since the call's context may be what failed, and quietly, since the
// buffer may never have been made.
func (c *Client) dropBuffer(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	c.command(ctx, "delete-buffer", "-b", name)
}

// noBuffer turns tmux's "no buffer NAME" (save-buffer, paste-buffer; 3.2a
// says only "no buffer" in delete-buffer) and
// "unknown buffer: NAME" (delete-buffer) into ErrNoBuffer.
func noBuffer(err error) error {
	var ce *CommandError
	if errors.As(err, &ce) && (strings.HasPrefix(ce.Message, "no buffer") || strings.HasPrefix(ce.Message, "unknown buffer")) {
		return ErrNoBuffer
	}
	return err
}
