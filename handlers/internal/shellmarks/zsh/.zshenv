# tmux-mcp shell marks for zsh (docs/shell-marks.md). zsh reads this
# because ZDOTDIR points here; it reads the user's .zshenv with the
# user's ZDOTDIR, then comes back here for .zprofile and .zshrc.
__tmux_mcp_zdot=$ZDOTDIR
if [[ -n ${TMUX_MCP_ZDOTDIR_SET-} ]]; then ZDOTDIR=$TMUX_MCP_ZDOTDIR; else unset ZDOTDIR; fi
unset TMUX_MCP_ZDOTDIR TMUX_MCP_ZDOTDIR_SET
if [[ -r ${ZDOTDIR:-$HOME}/.zshenv ]]; then source "${ZDOTDIR:-$HOME}/.zshenv"; fi
__tmux_mcp_user_zdot_set=${ZDOTDIR+1}
__tmux_mcp_user_zdot=${ZDOTDIR-}
ZDOTDIR=$__tmux_mcp_zdot
