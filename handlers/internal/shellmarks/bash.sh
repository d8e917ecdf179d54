# tmux-mcp shell marks for bash (docs/shell-marks.md). bash reads this
# file instead of ~/.bashrc (--init-file); it first reads what a login
# bash would have read, then marks the prompt with OSC 133.
if [ -n "${TMUX_MCP_LOGIN-}" ]; then
	unset TMUX_MCP_LOGIN
	if [ -r /etc/profile ]; then . /etc/profile; fi
	if [ -r ~/.bash_profile ]; then . ~/.bash_profile
	elif [ -r ~/.bash_login ]; then . ~/.bash_login
	elif [ -r ~/.profile ]; then . ~/.profile
	fi
elif [ -r ~/.bashrc ]; then
	. ~/.bashrc
fi

if [[ $- == *i* && -z ${__tmux_mcp_marks-} ]]; then
	__tmux_mcp_marks=1
	# D with the last status (bash prints it for an empty line too: a D
	# with no C before it is no command), then A; B ends PS1. It keeps $?
	# for the PROMPT_COMMAND entries after it.
	__tmux_mcp_prompt() {
		local s=$?
		if [[ -n ${__tmux_mcp_shown-} ]]; then printf '\e]133;D;%s\a' "$s"; fi
		__tmux_mcp_shown=1
		printf '\e]133;A\a'
		[[ $PS1 == *'133;B'* ]] || PS1=$PS1'\[\e]133;B\a\]'
		return "$s"
	}
	# C: PS0 is printed after a command line is read, before it runs
	# (bash 4.4 and later).
	PS0=${PS0-}'\e]133;C\a'
	if [[ $(declare -p PROMPT_COMMAND 2>/dev/null) == "declare -a"* ]]; then
		PROMPT_COMMAND=(__tmux_mcp_prompt "${PROMPT_COMMAND[@]}")
	else
		PROMPT_COMMAND="__tmux_mcp_prompt${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
	fi
fi
