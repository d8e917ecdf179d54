//go:build race

package e2e

// raceBuild is true when this test binary is built with -race; the
// tmux-mcp binary that process tests start is then built with -race too.
const raceBuild = true
