# The runner for fish, sourced in the pane's shell as if typed. Lines
# starting with # are dropped when the runner is written; @WORDS@ are
# filled in (see runner.go). shellcheck does not read fish; fish -n does.
#
# A temporary fish_postexec handler runs once an interrupted line is
# abandoned, and prints the abort marker; the runner removes it when the
# command ends.
printf '@START@'
function __tmux_mcp_abort --on-event fish_postexec
set -l s $status
functions -e __tmux_mcp_abort
printf '@ABORT;%d;%s@' $s ''
end
source @COMMAND@
set -g __tmux_mcp_status $status
functions -e __tmux_mcp_abort
printf '@END;%d@' $__tmux_mcp_status
set -e __tmux_mcp_status
