package tmuxctl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// CheckProgram looks a program up as the pane would: in the PATH of the
// call's env, else the session's, else the global environment's; a path
// as it is, against the cwd. It refuses only when sure.
func TestCheckProgram(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	dir := t.TempDir()
	prog := filepath.Join(dir, "only-here-tmux-mcp")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, sock, "set-environment", "-t", "main", "PATH", "/nonexistent:"+dir)
	main := SessionID(strings.TrimSpace(tmuxtest.Run(t, sock, "display-message", "-p", "-t", "main", "#{session_id}")))
	for _, c2 := range []struct {
		name    string
		session SessionID
		s       Spawn
		want    error // nil, or a *ProgramError with this Why
		why     ProgramProblem
	}{
		{"on the session's PATH", main, Spawn{Argv: []string{"only-here-tmux-mcp"}}, nil, 0},
		{"not on the global PATH", "", Spawn{Argv: []string{"only-here-tmux-mcp"}}, &ProgramError{}, NotOnPath},
		{"on the call's PATH", "", Spawn{Argv: []string{"only-here-tmux-mcp"}, Env: map[string]string{"PATH": dir}}, nil, 0},
		{"the call's PATH first", main, Spawn{Argv: []string{"only-here-tmux-mcp"}, Env: map[string]string{"PATH": "/nonexistent"}}, &ProgramError{}, NotOnPath},
		{"a file on PATH that cannot run", main, Spawn{Argv: []string{"plain"}}, &ProgramError{}, NotOnPath},
		{"a relative path, no cwd", "", Spawn{Argv: []string{"./nothing"}}, nil, 0},
		{"a relative path against cwd", "", Spawn{Argv: []string{"./nothing"}, Cwd: dir}, &ProgramError{}, NoSuchFile},
		{"a relative path that runs", "", Spawn{Argv: []string{"./only-here-tmux-mcp"}, Cwd: dir}, nil, 0},
		{"a file that cannot run", "", Spawn{Argv: []string{filepath.Join(dir, "plain")}}, &ProgramError{}, NotExecutable},
		{"a directory", "", Spawn{Argv: []string{dir}}, &ProgramError{}, IsDirectory},
		{"a relative PATH entry, no cwd", "", Spawn{Argv: []string{"x"}, Env: map[string]string{"PATH": "bin"}}, nil, 0},
	} {
		err := c.CheckProgram(ctx, c2.session, c2.s)
		var pe *ProgramError
		switch {
		case c2.want == nil && err != nil:
			t.Errorf("%s: %v, want it found", c2.name, err)
		case c2.want != nil && (!errors.As(err, &pe) || pe.Why != c2.why):
			t.Errorf("%s: %v, want problem %d", c2.name, err, c2.why)
		}
	}
}
