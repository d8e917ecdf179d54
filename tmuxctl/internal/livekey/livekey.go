// Package livekey holds the key to tmuxctl's live-layer operations
// ([tmuxctl.Client.LiveOps]): the pipes, holds and hook entries that leave
// marks of tmux-mcp in tmux. Go's internal rule lets only packages under
// tmuxctl/ import this package, so only tmuxctl/live can name a Key, and
// so only it can reach those operations; everything else uses Client's.
package livekey

// A Key opens [tmuxctl.Client.LiveOps]. Its blank field keeps any other
// package from writing a struct literal of the same type.
type Key struct{ _ struct{} }
