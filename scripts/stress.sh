#!/usr/bin/env bash
# Runs TestStress for SECONDS (default 60) against a private tmux: one
# tmux-mcp answering rounds of concurrent calls while ordinary clients
# attach and detach and another client churns windows. It ends with the
# test's "N passed, M failed" line. TMUX_MCP_TEST_TMUX picks the tmux.
#
#   scripts/stress.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
case $seconds in
'' | *[!0-9]* | 0) echo "usage: scripts/stress.sh [SECONDS]  (a positive whole number)" >&2; exit 2 ;;
esac
export TMUX_MCP_STRESS_SECONDS=$seconds
# Room for the run itself plus the generous per-call and clean-up bounds.
exec go test -count=1 -v -timeout "$((seconds + 600))s" -run '^TestStress$' ./e2e
