# The runner for POSIX shells (sh, dash, bash, ksh and friends), sourced
# in the pane's shell as if typed. Lines starting with # are dropped when
# the runner is written; @WORDS@ are filled in (see runner.go).
# shellcheck shell=sh
# The files it sources (the command, the saved traps) are written per
# command, at run time:
# shellcheck disable=SC1091
#
# In bash, delete the history entry of the typed line, which names this
# file (zsh and ksh cannot drop the current line; fish never keeps
# space-prefixed lines, and dash keeps no history).
if [ -n "${BASH_VERSION-}" ]; then case $(history 1 2>/dev/null) in *run-@NONCE@*) history -d "$HISTCMD" 2>/dev/null;; esac; fi
printf '@START@'
if [ -n "${BASH_VERSION-}" ]; then
# bash with an INT trap set neither runs it nor abandons the command:
# the abort marker comes from PROMPT_COMMAND, which runs only if this
# runner never got to its end.
__tmux_mcp_pc=${PROMPT_COMMAND-} __tmux_mcp_pcset=${PROMPT_COMMAND+x}
__tmux_mcp_restore() {
if [ -n "$__tmux_mcp_pcset" ]; then PROMPT_COMMAND=$__tmux_mcp_pc; else unset PROMPT_COMMAND; fi
unset __tmux_mcp_pc __tmux_mcp_pcset; unset -f __tmux_mcp_restore __tmux_mcp_abort
}
__tmux_mcp_abort() {
# Only bash defines this function (the branch tests BASH_VERSION):
# shellcheck disable=SC3043
local s=$?
printf '@ABORT;%d;%s@' "$s" ''
__tmux_mcp_restore
if [ -n "${PROMPT_COMMAND-}" ]; then (exit "$s"); eval "$PROMPT_COMMAND"; fi
return "$s"
}
PROMPT_COMMAND=__tmux_mcp_abort
else
# ksh93 makes a program stopped by C-z inside a sourced file a stopped
# job of its own and goes on with $? 0: the runner tells it by the
# current job changing to a stopped one.
if [ -n "${KSH_VERSION-}" ]; then jobs -l %+ > @SCRATCH@ 2>/dev/null; __tmux_mcp_before=; read -r __tmux_mcp_before < @SCRATCH@; fi
# dash does not show the shell's traps to $(trap): they go through a file.
trap > @SCRATCH@
# dash and ksh raise SIGINT on themselves when a program dies of it: the
# trap prints the abort marker, puts the user's traps back and re-raises.
trap '__tmux_mcp_status=$?; trap - INT; . @SCRATCH_IN_TRAP@; printf "@ABORT;%d;%s@" "$__tmux_mcp_status" INT; unset __tmux_mcp_status __tmux_mcp_before; kill -INT $$' INT
fi
# command . keeps an error that makes an interactive shell abandon the
# line (a syntax error, ${x:?}) from skipping the end marker.
command . @COMMAND@
__tmux_mcp_status=$?
if [ -n "${BASH_VERSION-}" ]; then __tmux_mcp_restore; else trap - INT; . @SCRATCH@; fi
# A program stopped by C-z or a signal (128+SIGSTOP, SIGTSTP, SIGTTIN or
# SIGTTOU) is left as a job: the newest job's process group goes in the
# marker, so the pane stays reserved while it lives.
case $__tmux_mcp_status in @STOP_STATUSES@) __tmux_mcp_stop=1;; *) __tmux_mcp_stop=;; esac
if [ -z "$__tmux_mcp_stop" ] && [ -n "${KSH_VERSION-}" ]; then
jobs -l %+ > @SCRATCH@ 2>/dev/null; __tmux_mcp_l=; read -r __tmux_mcp_l < @SCRATCH@
case $__tmux_mcp_l in *Stopped*) [ "$__tmux_mcp_l" != "$__tmux_mcp_before" ] && __tmux_mcp_stop=1;; esac
fi
if [ -n "$__tmux_mcp_stop" ]; then
jobs -p > @SCRATCH@ 2>/dev/null; __tmux_mcp_job=
while read -r __tmux_mcp_l; do __tmux_mcp_job=$__tmux_mcp_l; done < @SCRATCH@
printf '@STOP;%d;%s@' "$__tmux_mcp_status" "$__tmux_mcp_job"
else
printf '@END;%d@' "$__tmux_mcp_status"
fi
unset __tmux_mcp_stop __tmux_mcp_job __tmux_mcp_l __tmux_mcp_before
# return sets $? to the command's status without a subshell, so tmux
# keeps seeing the shell as the pane's program.
eval "unset __tmux_mcp_status; return $__tmux_mcp_status"
