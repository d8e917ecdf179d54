// Package screenwatch watches a pane's screen, for a pane whose output
// cannot be streamed: its pipe-pane is someone else's (the user's own
// `pipe-pane 'cat >> my.log'`, another tmux-mcp's), and tmux allows one
// pipe per pane, which tmux-mcp never replaces. wait_for_text,
// wait_for_quiet and capture_since fall back to it there instead of
// answering no_stream.
//
// # Looks
//
// A [Watcher] looks at the pane with one tmux command list
// ([tmuxctl.Client.GrabScreen]: capture-pane with wrapped lines joined,
// and the pane's history size, height and alternate-screen flag, which
// tmux reads without taking in pane output in between). It looks 10 ms
// after the wait starts and after every change, doubling the pause while
// the screen stays still, up to 250 ms: a few cheap native commands a
// second for a quiet pane, prompt looks while output flows. Each look
// takes a screen of history besides the screen (more after a burst, up
// to 2000 rows), and looks again further back when the history grew by
// more than that.
//
// # What is new
//
// The first look is the baseline: what it shows is old, as output before
// a stream wait's start is. [Compare] lines each look up with the one
// before it from the bottom, by the rows the content scrolled up: tmux's
// history growth says so exactly until the history is full (tmux then
// drops its oldest tenth at once), is cleared, or a full-screen program
// switches screens; so a shift is taken from the history only when the
// rows agree with it, and otherwise it is the one under which most
// non-blank rows are equal. Under that alignment a row is fresh when it
// is below the old bottom, or when its text differs from the row it lines
// up with — from the first byte that differs. A match must take in fresh
// text ([Find]): it may begin in the old part of a redrawn row, but text
// that was all on the screen before the wait is never a match (the
// wait's alreadyOnScreen says it is there). Our own typed echo is
// discounted on the screen as in the stream.
//
// # What it cannot do
//
// A screen is not a stream: output that scrolls past between two looks
// beyond the rows a look holds is lost (counted, as at least a byte per
// row, in missedBytes), a row rewritten twice between looks shows only
// its last state, blanks at the end of a row are not kept (a literal
// pattern ending in blanks matches the end of a row: [Literals]), and a
// resize reflows rows that then read as changed. Results have no cursor
// (null) and capture_since reports streaming false; the exact bytes are
// only in the stream, which the pane's own pipe carries to its owner.
// Commands (run_shell_command) need the stream's frame markers, which
// are not on the screen, so they are refused there.
package screenwatch
