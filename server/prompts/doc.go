// Package prompts offers MCP prompts that package a tmux job with its
// method (run a command and check it, watch a job until it is done, find
// out why a pane is stuck), and the completion of their pane-id arguments
// (and of the pane screen resource's) from the panes tmux lists.
package prompts
