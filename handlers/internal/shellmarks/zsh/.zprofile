# tmux-mcp shell marks: the user's .zprofile, with the user's ZDOTDIR.
if [[ -n $__tmux_mcp_user_zdot_set ]]; then ZDOTDIR=$__tmux_mcp_user_zdot; else unset ZDOTDIR; fi
if [[ -r ${ZDOTDIR:-$HOME}/.zprofile ]]; then source "${ZDOTDIR:-$HOME}/.zprofile"; fi
__tmux_mcp_user_zdot_set=${ZDOTDIR+1}
__tmux_mcp_user_zdot=${ZDOTDIR-}
ZDOTDIR=$__tmux_mcp_zdot
