#!/usr/bin/env bash
# The test command. In order:
#
#   1. gofmt, go vet, and a check that go generate changes nothing (gen/,
#      docs/tools.md, the generated tables of README.md and docs/);
#   2. go vet and go build for macOS (amd64, arm64) and FreeBSD, and a
#      release build (scripts/release.sh) into a temp dir;
#   3. every test, with the race detector, against the system tmux;
#   4. the two fuzz targets, a fixed number of inputs each;
#   5. the testscript goldens and the stress test against every other tmux
#      release of the version matrix, each built from the sources in
#      ../shared/tmux-src (beside the checkout) and cached (no -race there:
#      step 3 has it, and this step is about what differs between versions);
#      on every version also tmuxctl's native-client tests (its equivalence
#      with the tmux binary among them) and wait_for_input's corpus of
#      programs that wait for input and programs that do not, and on one version ($exec_version)
#      the goldens once more with the tmux binary forced
#      (TMUX_MCP_TMUX_CLIENT=exec) and every tool on go-sdk's own typed
#      path instead of tools/callpath (TMUX_MCP_SDK_CALLS=1); and on one
#      version ($fallback_version) the goldens once more with the stream
#      host off (TMUX_MCP_NO_TAPS=1, the escape hatch), and the goldens
#      and the live package's tests once more as on macOS and FreeBSD:
#      the host's relays cats (TMUX_MCP_TEST_RELAY_CAT=1; on Linux the host
#      takes each pane's pipe itself); both with process facts from ps
#      instead of /proc (TMUX_MCP_TEST_NO_PROC=1).
#
# Step 1 and 2 stop at the first failure; a failing test or tmux version
# does not stop the others. It prints how long each part took, one line per
# tmux version, and last a total line "N passed, M failed"; it exits non-zero
# when anything failed. Run from anywhere; it works in the repo root.
#
# Environment:
#
#   TMUX_MCP_MATRIX      the tmux versions of step 5, e.g. "3.2a 3.7c"
#                        (default: 3.2a 3.4 3.5a 3.6a 3.7c); "off" skips it
#   TMUX_MCP_TMUX_SRC    the tmux sources and their build.sh
#                        (default: ../shared/tmux-src)
#   TMUX_MCP_TMUX_CACHE  where built versions are kept
#                        (default: ${XDG_CACHE_HOME:-$HOME/.cache}/tmux-builds)
#   TMUX_MCP_STRESS_SECONDS  how long TestStress runs (default here: 60)
set -euo pipefail
cd "$(dirname "$0")/.."

# Each -timeout applies to one package's test binary; testscript stops a
# golden that is still running at 90% of it. On the 2-core CI machine the
# slowest packages (the root one: the goldens; e2e: stress, leftovers) take about
# 2 min in step 3 and about 1.5 min in a step-4 run when the machine is
# otherwise idle, and three to four times that when other jobs share its
# cores; the limits leave room for that and still end a hung test.
full_timeout=20m
matrix_timeout=10m
# The goldens (in the root package), the stress test, and the tests of
# several instances on one tmux server and of what is left behind (in e2e/;
# issue 20 asks for these on every version).
matrix_run='TestScripts|TestStress|TestInstances|TestLeftover'
matrix_pkgs='. ./e2e'
# tmuxctl's tests of the native client against the binary, for every version.
native_run='TestNative|TestExecTransport'
# wait_for_input's corpus of prompting and busy programs, and get_pane_info's
# awaiting_input, on every version (issue 31 asks for them on the matrix).
input_run='TestCorpus|TestPaneInfoSaysAwaitingInput'
# The version whose goldens also run with the tmux binary forced.
exec_version=3.5a
# The version whose goldens also run without taps and without /proc (the
# newest: what Homebrew installs on macOS).
fallback_version=3.7c
# CI runs the stress test for a minute (go test alone: 10 s; -short: not at all).
export TMUX_MCP_STRESS_SECONDS=${TMUX_MCP_STRESS_SECONDS:-60}
all_versions="3.2a 3.4 3.5a 3.6a 3.7c"
matrix=${TMUX_MCP_MATRIX:-$all_versions}
src=${TMUX_MCP_TMUX_SRC:-../shared/tmux-src}
cache=${TMUX_MCP_TMUX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tmux-builds}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
counts=$tmp/counts
: >"$counts"
parts=()    # "name<TAB>duration", in order
results=()  # one line per tmux version
failed=0    # failures outside go test (a tmux that did not build)

dur() { local s=$1; if [ "$s" -ge 60 ]; then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi; }
part() { part_name=$1; part_start=$SECONDS; echo; echo "== $1"; }
done_part() { parts+=("$part_name	$(dur $((SECONDS - part_start)))"); }

# gotest LABEL ARGS... runs go test ARGS through gotestsum (a go.mod tool),
# which prints a line per package and the output of every test that fails
# as it happens, and last "DONE N tests[, S skipped][, F failures][, E
# errors] in T"; the counts are taken from that line into $counts. They
# are gotestsum's: a test with subtests counts once itself besides its
# subtests, and a package that fails without a failing test (a build
# error, a failing TestMain) counts as failed.
gotest() {
	local label=$1; shift
	local start=$SECONDS rc=0 n=0 p=0 f=0 s=0 e=0 line
	go tool gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg -- "$@" 2>&1 |
		tee "$tmp/gotest.out" || rc=$?
	line=$(grep -E '^DONE [0-9]+ tests?' "$tmp/gotest.out" | tail -n 1 || true)
	if [ -n "$line" ]; then
		n=$(sed -E 's/^DONE ([0-9]+) tests?.*/\1/' <<<"$line")
		[[ $line =~ ([0-9]+)\ skipped ]] && s=${BASH_REMATCH[1]}
		[[ $line =~ ([0-9]+)\ failures? ]] && f=${BASH_REMATCH[1]}
		[[ $line =~ ([0-9]+)\ errors? ]] && e=${BASH_REMATCH[1]}
	fi
	# A package that failed as a whole is a failure outside the N tests.
	p=$((n - s - f)) f=$((f + e))
	if [ "$p" -lt 0 ]; then p=0; fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # go test failed before any test could (a bad flag)
	fi
	echo "$p $f $s" >>"$counts"
	local summary="$label: $p passed, $f failed"
	if [ "$s" -gt 0 ]; then summary+=", $s skipped"; fi
	results+=("$summary ($(dur $((SECONDS - start))))")
}

part "gofmt, go vet, go generate drift"
unformatted=$(gofmt -l $(git ls-files -co --exclude-standard '*.go' | grep -v '^gen/') || true)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go generate ./...
# go generate writes gen/ from schemas/, then docs/tools.md and the tables
# of README.md and docs/*.md from the catalogue (scripts/docgen).
generated="gen schemas docs README.md"
if [ -n "$(git status --porcelain -- $generated)" ]; then
	echo "go generate changed gen/, schemas/, docs/ or README.md: regenerate and commit"
	git status --porcelain -- $generated
	git diff --stat -- $generated
	exit 1
fi
done_part

part "go vet and go build for darwin/amd64, darwin/arm64, freebsd/amd64"
for target in darwin/amd64 darwin/arm64 freebsd/amd64; do
	echo "$target"
	GOOS=${target%/*} GOARCH=${target#*/} go vet ./...
	GOOS=${target%/*} GOARCH=${target#*/} go build ./...
done
done_part

part "scripts/release.sh: archives, MCPB bundle, server.json (built into a temp dir, never published)"
scripts/release.sh 0.0.0-ci "$tmp/dist" >/dev/null
(cd "$tmp/dist" && sha256sum -c --quiet SHA256SUMS)
# The bundle's launcher finds this machine's build.
mkdir "$tmp/mcpb" && (cd "$tmp/mcpb" && unzip -q "$tmp/dist/tmux-mcp_0.0.0-ci.mcpb")
jq -e '.server.type == "binary" and .version == "0.0.0-ci"' "$tmp/mcpb/manifest.json" >/dev/null
[ "$("$tmp/mcpb/server/tmux-mcp" --version)" = "tmux-mcp 0.0.0-ci" ]
done_part

system_tmux=$(command -v tmux || true)
if [ -z "$system_tmux" ]; then
	echo "no tmux on PATH: nearly every test would be skipped (Debian: apt-get install tmux)"
	exit 1
fi
system_version=$("$system_tmux" -V | sed 's/^tmux //')
part "go test -race ./... against the system tmux ($system_version)"
TMUX_MCP_TEST_TMUX=$system_tmux gotest "tmux $system_version (system, every test)" \
	-race -count=1 -timeout "$full_timeout" ./...
done_part

# Counted runs, not timed ones (about 10 s each on an idle machine): at the
# end of a -fuzztime duration Go 1.26's fuzzing coordinator can report its
# own deadline as a failure, "context deadline exceeded" with no failing
# input (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline.
part "fuzz: the JSON-RPC line reader and every tool's arguments"
gotest "fuzz FuzzTransport" -run '^$' -fuzz '^FuzzTransport$' -fuzztime 30000x ./tools/stdio
gotest "fuzz FuzzToolArguments" -run '^$' -fuzz '^FuzzToolArguments$' -fuzztime 600x ./tools
done_part

if [ "$matrix" = off ]; then
	echo; echo "== version matrix: skipped (TMUX_MCP_MATRIX=off)"
elif [ ! -x "$src/build.sh" ]; then
	echo; echo "== version matrix: no $src/build.sh"
	echo "The matrix builds tmux from the sources in ../shared/tmux-src beside the checkout"
	echo "(or TMUX_MCP_TMUX_SRC); TMUX_MCP_MATRIX=off skips it."
	results+=("version matrix: no tmux sources in $src")
	failed=$((failed + 1))
else
	for v in $matrix; do
		part "tmux $v: build"
		bin=
		if [ "$v" = "$system_version" ]; then
			bin=$system_tmux
		elif ! bin=$("$src/build.sh" "$v" "$cache"); then
			bin=
		fi
		done_part
		if [ -z "$bin" ] || [ "$("$bin" -V)" != "tmux $v" ]; then
			echo "tmux $v: no binary (got ${bin:-nothing})"
			results+=("tmux $v: did not build")
			failed=$((failed + 1))
			continue
		fi
		echo "$bin"
		part "tmux $v: go test -run '$matrix_run' $matrix_pkgs"
		# The tests take tmux from TMUX_MCP_TEST_TMUX; PATH has it too, so
		# that a test which runs plain "tmux" still gets this version.
		mkdir -p "$tmp/tmux-$v"
		ln -sf "$bin" "$tmp/tmux-$v/tmux"
		TMUX_MCP_TEST_TMUX=$bin PATH=$tmp/tmux-$v:$PATH gotest "tmux $v" \
			-count=1 -timeout "$matrix_timeout" -run "$matrix_run" $matrix_pkgs
		done_part
		part "tmux $v: go test -run '$native_run' ./tmuxctl"
		TMUX_MCP_TEST_TMUX=$bin PATH=$tmp/tmux-$v:$PATH gotest "tmux $v (native client against the binary)" \
			-count=1 -timeout "$matrix_timeout" -run "$native_run" ./tmuxctl
		done_part
		part "tmux $v: go test -run '$input_run' ./handlers/..."
		TMUX_MCP_TEST_TMUX=$bin PATH=$tmp/tmux-$v:$PATH gotest "tmux $v (programs that wait for input)" \
			-count=1 -timeout "$matrix_timeout" -run "$input_run" ./handlers/...
		done_part
		if [ "$v" = "$exec_version" ]; then
			part "tmux $v: go test -run TestScripts . with TMUX_MCP_TMUX_CLIENT=exec TMUX_MCP_SDK_CALLS=1"
			TMUX_MCP_TMUX_CLIENT=exec TMUX_MCP_SDK_CALLS=1 TMUX_MCP_TEST_TMUX=$bin PATH=$tmp/tmux-$v:$PATH gotest "tmux $v (tmux binary forced, calls through go-sdk)" \
				-count=1 -timeout "$matrix_timeout" -run TestScripts .
			done_part
		fi
		if [ "$v" = "$fallback_version" ]; then
			part "tmux $v: go test -run TestScripts . with TMUX_MCP_NO_TAPS=1 TMUX_MCP_TEST_NO_PROC=1"
			TMUX_MCP_NO_TAPS=1 TMUX_MCP_TEST_NO_PROC=1 TMUX_MCP_TEST_TMUX=$bin PATH=$tmp/tmux-$v:$PATH gotest "tmux $v (no stream host, no /proc: the escape hatch)" \
				-count=1 -timeout "$matrix_timeout" -run TestScripts .
			done_part
			part "tmux $v: go test . ./tmuxctl/live with TMUX_MCP_TEST_RELAY_CAT=1 TMUX_MCP_TEST_NO_PROC=1"
			TMUX_MCP_TEST_RELAY_CAT=1 TMUX_MCP_TEST_NO_PROC=1 TMUX_MCP_TEST_TMUX=$bin PATH=$tmp/tmux-$v:$PATH gotest "tmux $v (the host's cat relays, no /proc: the macOS path)" \
				-count=1 -timeout "$matrix_timeout" . ./tmuxctl/live
			done_part
		fi
	done
fi

echo
echo "== time taken"
for p in "${parts[@]}"; do printf '  %-70s %s\n' "${p%%	*}" "${p#*	}"; done
printf '  %-70s %s\n' "all" "$(dur "$SECONDS")"
echo
echo "== results"
for r in "${results[@]}"; do echo "  $r"; done
echo
total_p=0 total_f=$failed
while read -r p f s; do total_p=$((total_p + p)); total_f=$((total_f + f)); done <"$counts"
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
