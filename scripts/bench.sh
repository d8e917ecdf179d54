#!/usr/bin/env bash
# Prints the performance numbers of DESIGN §6 (medians over repeated runs
# against a private tmux). Nothing here asserts a speed; compare the
# numbers with the targets in DESIGN §6.
#
# First: one bare tmux command over tmux's own client protocol (the native
# client) against the same command in a spawned tmux, and a bare
# connection; medians of BENCH_COUNT runs (default 5) and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
quiet() { grep -v -e '^goos' -e '^goarch' -e '^cpu' -e '^pkg' -e '^PASS' -e '^ok'; }

count=${BENCH_COUNT:-5}
echo "== one bare list-panes -a: native client against a spawned tmux (median µs per run, $count runs)"
go test -run '^$' -bench 'ListPanesNative|ListPanesExec|ConnectOnly' -count "$count" ./tmuxctl |
	awk '
	function median(list,   n, a, i, j, t) {
		n = split(list, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
		for (i = 2; i < NF; i++) if ($(i + 1) == "median-µs") runs[name] = runs[name] " " $i
	}
	END {
		for (name in runs) { m[name] = median(runs[name]); printf "  %-18s %8.1f µs   (runs:%s)\n", name, m[name], runs[name] }
		if (m["ListPanesNative"] > 0)
			printf "  exec / native      %8.1f×\n", m["ListPanesExec"] / m["ListPanesNative"]
	}'

echo
echo "== tool level"
go test -run '^$' -bench 'Wakeup|BareTmux|ListPanes|Startup|RunShellCommandTrue|RunProgramTrue|WaitForExitNotice' -benchtime 30x ./e2e | quiet
go test -run '^$' -bench 'ConcurrentWaits|Stream100MiB' -benchtime 3x ./e2e | quiet
go test -run '^$' -bench . ./tmuxctl/... | quiet
