// Package resources serves tmux as MCP resources: tmux://sessions (every
// session with its windows and panes, as JSON), the template
// tmux://panes/{paneId}/screen (what a pane shows, as text) and the
// template tmux://panes/{paneId}/state (what it does, from its shell's
// prompt marks: its activity and last exit status, as JSON; a subscriber
// is told when they change, not when the pane prints).
//
// A client may subscribe to a pane's screen. The updates come from the
// live layer's stream of the pane (its pipe-pane: no attached client, no
// polling), at most [MaxRate] a second per pane; the last one comes when
// the pane's stream ends (the pane, its window or its session went), and
// the subscription ends with it.
//
// Pane ids start with "%", which a URI must escape: pane %1's screen is
// tmux://panes/%251/screen, as RFC 6570 expands the template.
package resources
