#!/usr/bin/env bash
# Prints the performance numbers of DESIGN §6 (medians over repeated runs
# against a private tmux). Nothing here asserts a speed; compare the
# numbers with the targets in DESIGN §6.
set -euo pipefail
cd "$(dirname "$0")/.."
quiet() { grep -v -e '^goos' -e '^goarch' -e '^cpu' -e '^pkg' -e '^PASS' -e '^ok'; }
go test -run '^$' -bench 'Wakeup|BareTmux|ListPanes|Startup|RunShellCommandTrue|RunProgramTrue|WaitForExitNotice' -benchtime 30x . | quiet
go test -run '^$' -bench 'ConcurrentWaits|Stream100MiB' -benchtime 3x . | quiet
go test -run '^$' -bench . ./tmuxctl/... | quiet
