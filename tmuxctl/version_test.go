package tmuxctl

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// TestProbeVersion checks where the start-up line's version comes from:
// the running server, asked natively, and with no server the binary.
func TestProbeVersion(t *testing.T) {
	ctx := context.Background()
	sock := tmuxtest.Server(t)
	want := strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "#{version}"))
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	v, fromServer, err := c.ProbeVersion(ctx)
	if err != nil || !fromServer || v.String() != want {
		t.Errorf("ProbeVersion with a server: %v, fromServer %v, %v; want %s from the server", v, fromServer, err, want)
	}

	none := New(Config{Binary: tmuxtest.Binary(), SocketPath: filepath.Join(t.TempDir(), "none")})
	bin, err := none.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, fromServer, err = none.ProbeVersion(ctx)
	if err != nil || fromServer || v != bin {
		t.Errorf("ProbeVersion with no server: %v, fromServer %v, %v; want %v from the binary", v, fromServer, err, bin)
	}
}
