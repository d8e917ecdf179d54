package callpath_test

import (
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tools"
	"github.com/tmux-mcp/tmux-mcp/tools/callpath"
)

// TestEveryContractResolves resolves every catalogue tool's schemas: a
// tools/call resolves them only when first called, so a schema that does
// not resolve would otherwise show only then.
func TestEveryContractResolves(t *testing.T) {
	for _, tool := range tools.Catalogue {
		if err := callpath.For(tool.Name).Resolve(); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
		}
	}
}
