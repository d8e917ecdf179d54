# The runner for zsh, sourced in the pane's shell as if typed. Lines
# starting with # are dropped when the runner is written; @WORDS@ are
# filled in (see runner.go). shellcheck does not read zsh; zsh -n does.
#
# The always block runs on an interrupt too (TRY_BLOCK_INTERRUPT says so),
# and zsh abandons the rest after it; an error that would abandon the
# line is contained by it.
printf '@START@'
{ . @COMMAND@ } always {
__tmux_mcp_status=$?
if (( TRY_BLOCK_INTERRUPT > 0 )); then
printf '@ABORT;%d;%s@' "$__tmux_mcp_status" ''
unset __tmux_mcp_status
elif (( __tmux_mcp_status >= @STOP_LOW@ && __tmux_mcp_status <= @STOP_HIGH@ )); then
jobs -p %+ > @SCRATCH@ 2>/dev/null
read -r __tmux_mcp_n __tmux_mcp_c __tmux_mcp_job __tmux_mcp_r < @SCRATCH@
printf '@STOP;%d;%s@' "$__tmux_mcp_status" "${__tmux_mcp_job//[^0-9]/}"
unset __tmux_mcp_n __tmux_mcp_c __tmux_mcp_job __tmux_mcp_r
TRY_BLOCK_ERROR=0
else
printf '@END;%d@' "$__tmux_mcp_status"
TRY_BLOCK_ERROR=0
fi
}
eval "unset __tmux_mcp_status; return $__tmux_mcp_status"
