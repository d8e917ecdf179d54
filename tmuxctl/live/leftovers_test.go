package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// FindLeftovers reports the marks of instances that no longer run, and
// only those, and changes nothing.
func TestFindLeftovers(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "cat")
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "cat")
	dead, alive := deadPID(t), strconv.Itoa(os.Getpid())
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", tmuxctl.PipeOption, fmt.Sprintf("%s.abc.1", dead))
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%1", tmuxctl.HoldOption, fmt.Sprintf("%s.def -", dead))
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%2", tmuxctl.PipeOption, fmt.Sprintf("%s.ghi", alive))
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%2", tmuxctl.HoldOption, fmt.Sprintf("%s.jkl -", alive))

	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	deadDir := filepath.Join(tmp, instanceDirPrefix+dead+"-x")
	aliveDir := filepath.Join(tmp, instanceDirPrefix+alive+"-y")
	for _, d := range []string{deadDir, aliveDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}

	c := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	got := FindLeftovers(context.Background(), c)
	want := Leftovers{Pipes: []tmuxctl.PaneID{"%0"}, Holds: []tmuxctl.PaneID{"%1"}, Dirs: []string{deadDir}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FindLeftovers = %+v, want %+v", got, want)
	}
	if got.Empty() {
		t.Fatal("Empty with leftovers")
	}
	// Nothing was touched.
	if _, err := os.Stat(deadDir); err != nil {
		t.Fatalf("the dead instance's directory: %v", err)
	}
	if v := tmuxtest.Run(t, sock, "show-options", "-p", "-v", "-t", "%0", tmuxctl.PipeOption); v != fmt.Sprintf("%s.abc.1\n", dead) {
		t.Fatalf("pipe mark after FindLeftovers: %q", v)
	}
	if v := tmuxtest.Run(t, sock, "show-options", "-p", "-v", "-t", "%1", tmuxctl.HoldOption); v != fmt.Sprintf("%s.def -\n", dead) {
		t.Fatalf("hold mark after FindLeftovers: %q", v)
	}

	// With no server, only the directories.
	gone := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: filepath.Join(tmp, "none")})
	if got := FindLeftovers(context.Background(), gone); !reflect.DeepEqual(got, Leftovers{Dirs: []string{deadDir}}) {
		t.Fatalf("FindLeftovers with no server = %+v", got)
	}
}
