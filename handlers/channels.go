// This file holds the tools of the catalogue family Synchronising on
// channels (wait_for_channel, signal_channel).

package handlers

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/waiting"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// channelName is compiled on first use: a counted repetition this long
// takes a fraction of a millisecond, which every start would otherwise pay.
var channelName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`) })

// WaitForChannel blocks until a tmux wait-for channel is signalled, the
// clamped timeout passes, or the call is cancelled. Only a real signal is a
// success; a timeout, a cancellation or a tmux server that dies mid-wait are
// errors that say which.
func (h *Handlers) WaitForChannel(ctx context.Context, in gen.WaitForChannelInput) (gen.WaitForChannelOutput, error) {
	client, err := h.channelClient(in.Channel, in.SocketName)
	if err != nil {
		return gen.WaitForChannelOutput{}, err
	}
	if !(in.Timeout > 0) {
		return gen.WaitForChannelOutput{}, wording.ChannelTimeout(in.Timeout)
	}
	w := h.beginWait(ctx, in.Timeout*1000, "waiting for channel "+in.Channel)
	defer w.Done()
	enforced := seconds(w.Effective.Seconds())
	clampNote := ""
	if float64(w.Effective) < in.Timeout*float64(time.Second) {
		clampNote = fmt.Sprintf(" (requested %ss, clamped to the server ceiling)", strconv.FormatFloat(in.Timeout, 'g', -1, 64)) // short even for 1e300
	}
	err = client.WaitFor(w.Ctx, in.Channel)
	switch w.End(err) {
	case waiting.Happened:
		return gen.WaitForChannelOutput{Result: fmt.Sprintf("channel %q was signalled; timeout enforced: %ss%s", in.Channel, enforced, clampNote)}, nil
	case waiting.TimedOut:
		return gen.WaitForChannelOutput{}, wording.ChannelNotSignalled(in.Channel, enforced, clampNote)
	case waiting.Cancelled:
		return gen.WaitForChannelOutput{}, wording.ChannelCancelled(in.Channel)
	case waiting.Gone:
		if errors.Is(err, tmuxctl.ErrChannelAborted) {
			return gen.WaitForChannelOutput{}, wording.ChannelServerStopped(client.Describe(), in.Channel)
		}
		return gen.WaitForChannelOutput{}, wording.NoServer(client, client != h.tmux)
	}
	return gen.WaitForChannelOutput{}, h.explain(ctx, err)
}

// SignalChannel wakes every waiter on a channel; with no waiter, tmux keeps
// the signal for the next wait.
func (h *Handlers) SignalChannel(ctx context.Context, in gen.SignalChannelInput) (gen.SignalChannelOutput, error) {
	var socket any
	if in.SocketName != nil {
		socket = *in.SocketName
	}
	client, err := h.channelClient(in.Channel, socket)
	if err != nil {
		return gen.SignalChannelOutput{}, err
	}
	if err := client.Signal(ctx, in.Channel); err != nil {
		if errors.Is(err, tmuxctl.ErrServerGone) {
			return gen.SignalChannelOutput{}, wording.NoServer(client, client != h.tmux)
		}
		return gen.SignalChannelOutput{}, h.explain(ctx, err)
	}
	return gen.SignalChannelOutput{Result: fmt.Sprintf("channel %q signalled on socket %s", in.Channel, client.Describe())}, nil
}

// channelClient checks a channel name and picks the tmux client for a
// socket_name argument (nil: the configured socket).
func (h *Handlers) channelClient(channel string, socketName any) (*tmuxctl.Client, error) {
	if !channelName().MatchString(channel) {
		return nil, wording.BadChannel(channel)
	}
	switch name := socketName.(type) {
	case nil:
		return h.tmux, nil
	case string:
		if name == "" || strings.ContainsAny(name, "/\x00") {
			return nil, wording.BadSocketName(&name)
		}
		return h.tmux.WithSocketName(name), nil
	}
	return nil, wording.BadSocketName(nil)
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) }
