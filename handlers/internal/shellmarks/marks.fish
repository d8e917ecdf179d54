# tmux-mcp shell marks for fish (docs/shell-marks.md), sourced by
# `fish -C` after fish's own config. fish 4 and later mark their prompts
# themselves; this adds nothing there.
set -e TMUX_MCP_MARKS
if status is-interactive; and not set -q __tmux_mcp_marks
    set -g __tmux_mcp_marks 1
    if test (string split -m1 . -- $version)[1] -lt 4
        function __tmux_mcp_prompt --on-event fish_prompt
            printf '\e]133;A\a'
        end
        function __tmux_mcp_preexec --on-event fish_preexec
            printf '\e]133;C\a'
        end
        function __tmux_mcp_postexec --on-event fish_postexec
            printf '\e]133;D;%s\a' $status
        end
    end
end
