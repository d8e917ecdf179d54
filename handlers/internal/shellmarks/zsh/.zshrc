# tmux-mcp shell marks: the user's .zshrc with the user's ZDOTDIR (kept
# from here on: zsh reads .zlogin from it), then the marks.
if [[ -n $__tmux_mcp_user_zdot_set ]]; then ZDOTDIR=$__tmux_mcp_user_zdot; else unset ZDOTDIR; fi
unset __tmux_mcp_zdot __tmux_mcp_user_zdot __tmux_mcp_user_zdot_set
if [[ -r ${ZDOTDIR:-$HOME}/.zshrc ]]; then source "${ZDOTDIR:-$HOME}/.zshrc"; fi

if [[ -o interactive && -z ${__tmux_mcp_marks-} ]]; then
	__tmux_mcp_marks=1
	# First among the precmd functions, to read the command's $?.
	__tmux_mcp_precmd() {
		local s=$?
		if [[ -n ${__tmux_mcp_ran-} ]]; then printf '\e]133;D;%s\a' "$s"; unset __tmux_mcp_ran; fi
		printf '\e]133;A\a'
		[[ $PS1 == *'133;B'* ]] || PS1=$PS1$'%{\e]133;B\a%}'
		return $s
	}
	__tmux_mcp_preexec() {
		__tmux_mcp_ran=1
		printf '\e]133;C\a'
	}
	precmd_functions=(__tmux_mcp_precmd $precmd_functions)
	preexec_functions+=(__tmux_mcp_preexec)
fi
