package tmuxctl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// RunnerName is $0 of the gating shells that start programs in panes: what
// the shell puts before a message of its own ("tmux-mcp-run: 5: exec: …"),
// so that such a message never names the tmux binary.
const RunnerName = "tmux-mcp-run"

// A ProgramError says that a program cannot be started: argv[0] is not
// found, or is not a file that can run.
type ProgramError struct {
	Program string
	Why     ProgramProblem
}

// A ProgramProblem is why a program cannot be started.
type ProgramProblem int

const (
	NotOnPath     ProgramProblem = iota // a name (no '/') that no PATH directory holds
	NoSuchFile                          // a path that does not exist
	IsDirectory                         // a path to a directory
	NotExecutable                       // a file without execute permission
)

func (e *ProgramError) Error() string {
	switch e.Why {
	case NotOnPath:
		return "program " + e.Program + " not found on PATH"
	case NoSuchFile:
		return "program " + e.Program + " does not exist"
	case IsDirectory:
		return "program " + e.Program + " is a directory"
	}
	return "program " + e.Program + " is not executable"
}

// CheckStartable refuses program s for placement where as
// [Client.StartGated] would, before it makes anything.
func (c *Client) CheckStartable(ctx context.Context, where Placement, s Spawn) error {
	if err := s.check(nothingCreated); err != nil {
		return err
	}
	return c.checkStartable(ctx, where, s)
}

// checkStartable is [Client.CheckProgram] for a program [Client.StartGated]
// puts where: in the session that will hold its pane.
func (c *Client) checkStartable(ctx context.Context, where Placement, s Spawn) error {
	var session SessionID
	switch {
	case where.Split != "":
		p, err := c.Pane(ctx, where.Split)
		if err != nil {
			return err
		}
		session = p.SessionID
	case where.SessionName != "":
		if sess, err := c.sessionByName(ctx, where.SessionName); err == nil {
			session = sess.ID
		}
	default:
		// By exact name, with no lookup: should the session be missing,
		// the pane gets the global environment, as a new session would.
		session = programTarget
	}
	return c.CheckProgram(ctx, session, s)
}

// CheckProgram looks for s.Argv[0] as the pane's shell would before it
// execs it: a path (with '/') as it is, relative to s.Cwd; a name in the
// PATH the pane gets (s.Env's, else session's, else the global
// environment's; "" is a new session). It returns a [*ProgramError] only
// when sure: with no PATH, or a relative path and no cwd to resolve it
// by, the pane's own shell finds out.
func (c *Client) CheckProgram(ctx context.Context, session SessionID, s Spawn) error {
	if len(s.Argv) == 0 {
		return nil
	}
	prog := s.Argv[0]
	if strings.Contains(prog, "/") {
		path, ok := resolve(prog, s.Cwd)
		if !ok {
			return nil
		}
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return &ProgramError{Program: prog, Why: NoSuchFile}
		case err != nil:
			return nil
		case fi.IsDir():
			return &ProgramError{Program: prog, Why: IsDirectory}
		case !runnable(fi):
			return &ProgramError{Program: prog, Why: NotExecutable}
		}
		return nil
	}
	path, ok := c.panePath(ctx, session, s)
	if !ok {
		return nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		full, ok := resolve(filepath.Join(dir, prog), s.Cwd)
		if !ok {
			return nil // a relative directory without a cwd: not sure
		}
		if fi, err := os.Stat(full); err == nil && !fi.IsDir() && runnable(fi) {
			return nil
		}
	}
	return &ProgramError{Program: prog, Why: NotOnPath}
}

// resolve is path made absolute against cwd; ok is false when it is
// relative and cwd is not known.
func resolve(path, cwd string) (string, bool) {
	switch {
	case filepath.IsAbs(path):
		return path, true
	case cwd == "":
		return "", false
	}
	return filepath.Join(cwd, path), true
}

func runnable(fi os.FileInfo) bool { return fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 }

// panePath is the PATH a new pane in session gets: s.Env's, else the
// session environment's, else the global one's; ok is false when none
// is known (tmux then leaves it to the shell's default).
func (c *Client) panePath(ctx context.Context, session SessionID, s Spawn) (string, bool) {
	if p, ok := s.Env["PATH"]; ok {
		return p, true
	}
	if session != "" {
		// A format reads a variable as a new pane in the session gets
		// it: the session's entry, else the global one's; "" when the
		// session's or the global entry is removed, or there is none
		// (then, as with an empty PATH, the pane's own shell finds out).
		// One command, where show-environment takes one per scope.
		out, err := c.command(ctx, "display-message", "-p", "-t", string(session), "#{PATH}")
		var nf *NotFoundError
		switch {
		case err == nil:
			path := strings.TrimSuffix(c.unprinted(ctx, out), "\n")
			return path, path != ""
		case errors.As(err, &nf) && nf.Kind == "session":
			// made afresh: it starts with the global environment
		case errors.Is(err, ErrServerGone):
			return os.LookupEnv("PATH")
		default:
			return "", false
		}
	}
	v, ok, err := c.EnvironmentVar(ctx, "", "PATH")
	switch {
	case errors.Is(err, ErrServerGone):
		// The server this call starts inherits this process's
		// environment.
		return os.LookupEnv("PATH")
	case err != nil || !ok || v.Removed:
		return "", false
	}
	return v.Value, true
}
