#!/usr/bin/env bash
# The test command: formatting, vet, generated-code drift, and every test
# with the race detector. Run from anywhere; it works in the repo root.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files -co --exclude-standard '*.go' | grep -v '^gen/') || true)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== go generate drift"
go generate ./...
if [ -n "$(git status --porcelain -- gen schemas)" ]; then
	echo "go generate changed gen/ or schemas/: regenerate and commit"
	git status --porcelain -- gen schemas
	git diff --stat -- gen schemas
	exit 1
fi

echo "== go test -race"
go test -race -count=1 ./...
