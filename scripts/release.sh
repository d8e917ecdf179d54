#!/usr/bin/env bash
# release.sh VERSION [OUTDIR] builds a release of tmux-mcp into OUTDIR
# (default: dist/, which git ignores). It only builds: nothing is
# uploaded or published.
#
#   tmux-mcp_VERSION_{linux,darwin}_{amd64,arm64}.tar.gz
#                      the binary, README.md; extract and put tmux-mcp on PATH
#   tmux-mcp_VERSION.mcpb
#                      an MCP Bundle for Claude Desktop: manifest.json, the
#                      four binaries and a launcher that picks one, validated
#                      and packed by the official MCPB CLI (npx, from npm)
#   server.json        the entry for the MCP registry, naming the bundle
#                      and its SHA-256
#   SHA256SUMS         checksums of all of the above
#
# VERSION is a semantic version without the v (1.2.3, 1.2.3-rc.1).
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:?usage: scripts/release.sh VERSION [OUTDIR]}
out=${2:-dist}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release.sh: version $version: want a semantic version such as 1.2.3" >&2
	exit 2
fi
repo=https://github.com/tmux-mcp/tmux-mcp
registry_name=io.github.tmux-mcp/tmux-mcp
description="A real tmux for AI agents: durable panes, output, and waits that end on text or exit"
targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64"

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
# The official MCPB packer, from npm (Node.js 18 or later), pinned.
mcpb_cli=@anthropic-ai/mcpb@2.1.2
mcpb_tool() { npx --yes "$mcpb_cli" "$@"; }

# Reproducible: no paths of this machine, no build ids, no cgo.
export CGO_ENABLED=0
ldflags="-s -w -buildid= -X main.version=$version"

bundle=$work/bundle
mkdir -p "$bundle/server"
for target in $targets; do
	os=${target%/*} arch=${target#*/}
	name=tmux-mcp_${version}_${os}_${arch}
	echo "building $name"
	mkdir -p "$work/$name"
	GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$ldflags" -o "$work/$name/tmux-mcp" .
	cp README.md "$work/$name/"
	tar -C "$work" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name" 2>/dev/null ||
		tar -C "$work" -czf "$out/$name.tar.gz" "$name" # BSD tar has no --owner
	cp "$work/$name/tmux-mcp" "$bundle/server/tmux-mcp-$os-$arch"
done

# The bundle's launcher: Claude Desktop starts servers with a short PATH,
# and Homebrew's tmux lives outside it.
cat >"$bundle/server/tmux-mcp" <<'SH'
#!/bin/sh
# Runs the tmux-mcp built for this machine.
here=$(dirname "$0")
PATH=$PATH:/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin
export PATH
os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
arm64 | aarch64) arch=arm64 ;;
*) echo "tmux-mcp: no build for $(uname -m)" >&2; exit 1 ;;
esac
exec "$here/tmux-mcp-$os-$arch" "$@"
SH
chmod 755 "$bundle/server/tmux-mcp"
cp README.md "$bundle/"
jq -n --arg version "$version" --arg repo "$repo" --arg description "$description" '{
	manifest_version: "0.3",
	name: "tmux-mcp",
	display_name: "tmux",
	version: $version,
	description: $description,
	long_description: "Gives the agent a private or shared tmux server: start programs in panes that outlive the conversation, read their output, and wait for text, a channel or an exit without polling. Needs tmux 3.2a or later installed (brew install tmux).",
	author: {name: "tmux-mcp authors", url: $repo},
	repository: {type: "git", url: ($repo + ".git")},
	homepage: $repo,
	support: ($repo + "/issues"),
	keywords: ["tmux", "terminal", "shell", "processes"],
	server: {
		type: "binary",
		entry_point: "server/tmux-mcp",
		mcp_config: {
			command: "${__dirname}/server/tmux-mcp",
			args: [],
			env: {
				TMUX_MCP_SAFETY: "${user_config.safety}",
				TMUX_MCP_SOCKET_NAME: "${user_config.socket_name}"
			}
		}
	},
	tools_generated: true,
	prompts_generated: true,
	compatibility: {platforms: ["darwin", "linux"]},
	user_config: {
		safety: {
			type: "string",
			title: "Safety tier",
			description: "readonly, mutating (the default) or destructive: which tools the agent gets",
			default: "mutating",
			required: false
		},
		socket_name: {
			type: "string",
			title: "tmux socket name",
			description: "A tmux -L name to keep the agent on a server of its own; empty for your default tmux server",
			default: "",
			required: false
		}
	}
}' >"$bundle/manifest.json"
mcpb=tmux-mcp_${version}.mcpb
# Checked against the manifest schema, then packed, by the official CLI.
mcpb_tool validate "$bundle/manifest.json"
mcpb_tool pack "$bundle" "$out/$mcpb" >/dev/null
echo "bundled $mcpb"

mcpb_sum=$(sha256 "$out/$mcpb" | cut -d' ' -f1)
jq -n --arg version "$version" --arg repo "$repo" --arg name "$registry_name" --arg description "$description" \
	--arg url "$repo/releases/download/v$version/$mcpb" --arg sum "$mcpb_sum" '{
	"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
	name: $name,
	title: "tmux",
	description: ($description | .[0:100]),
	version: $version,
	repository: {url: $repo, source: "github"},
	websiteUrl: $repo,
	packages: [{
		registryType: "mcpb",
		identifier: $url,
		version: $version,
		fileSha256: $sum,
		transport: {type: "stdio"}
	}]
}' >"$out/server.json"

(cd "$out" && sha256 tmux-mcp_"${version}"_*.tar.gz "$mcpb" server.json >SHA256SUMS)
echo "release $version in $out:"
(cd "$out" && ls -l)
