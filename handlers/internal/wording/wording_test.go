package wording

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestRefusalsNeverShowArgv: tmux's refusal is worded with its message
// only; the command and its arguments (here a secret in -e) never reach
// the agent, nor the path of a private file.
func TestRefusalsNeverShowArgv(t *testing.T) {
	ce := &tmuxctl.CommandError{Argv: []string{"new-window", "-e", "API_TOKEN=secret", "-F", "#{pane_id}"}, Message: "create window failed: index in use"}
	err := Explain(context.Background(), nil, ce)
	if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "#{") {
		t.Errorf("argv leaked: %v", err)
	}
	if strings.Contains(err.Error(), "new-window") {
		t.Errorf("names the tmux command: %v", err)
	}
	if !strings.Contains(err.Error(), "index in use") {
		t.Errorf("lost tmux's words: %v", err)
	}
	sourced := &tmuxctl.CommandError{Argv: []string{"new-window"}, Message: "/tmp/tmux-mcp-1-x/command:1: no space for new pane"}
	if err := Explain(context.Background(), nil, sourced); err.Error() != "tmux refused: no space for new pane" {
		t.Errorf("a sourced command's refusal: %v", err)
	}
	pe := &fs.PathError{Op: "open", Path: "/tmp/tmux-mcp-1-x/command", Err: fs.ErrPermission}
	if err := Explain(context.Background(), nil, fmt.Errorf("writing: %w", pe)); strings.Contains(err.Error(), "/tmp") || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("a private file's error: %v", err)
	}
	if !errors.Is(Explain(context.Background(), nil, context.Canceled), context.Canceled) {
		t.Error("a cancelled call no longer says so to errors.Is")
	}
}

// TestErrorsStayShort: whatever a caller passes in, an error is at most
// Most characters, and the error it wraps is still there.
func TestErrorsStayShort(t *testing.T) {
	long := strings.Repeat("é", 5000)
	cause := errors.New(long)
	for _, err := range []error{
		Field(long, cause),
		BadPattern(1, long, cause),
		CursorMalformed(long, cause),
		UnknownCommand(long, false),
		NotStarted(long, "pane", nil, nil, long),
		MayStillRun(cause, long, "%1"),
		Refused(&tmuxctl.CommandError{Argv: []string{"x"}, Message: long}),
		ChannelNotSignalled(long, "50", long),
	} {
		if n := utf8.RuneCountInString(err.Error()); n > Most {
			t.Errorf("%d characters: %.80s…", n, err)
		}
	}
	if !errors.Is(Field(long, cause), cause) {
		t.Error("a cut error no longer wraps its cause")
	}
}

// TestCannotRun: a program that cannot start is named, plainly when it
// reads unambiguously, quoted when not.
func TestCannotRun(t *testing.T) {
	for _, c := range []struct {
		pe   tmuxctl.ProgramError
		want string
	}{
		{tmuxctl.ProgramError{Program: "nosuch-cmd", Why: tmuxctl.NotOnPath}, "program nosuch-cmd not found on PATH (nothing was created)"},
		{tmuxctl.ProgramError{Program: "/etc/passwd", Why: tmuxctl.NotExecutable}, "program /etc/passwd is not executable"},
		{tmuxctl.ProgramError{Program: "/", Why: tmuxctl.IsDirectory}, "program / is a directory"},
		{tmuxctl.ProgramError{Program: "my prog\n", Why: tmuxctl.NoSuchFile}, `program "my prog\n" does not exist`},
	} {
		if got := Explain(context.Background(), nil, fmt.Errorf("x: %w", &c.pe)).Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: %s, want it to start %s", c.pe, got, c.want)
		}
	}
}

func TestPipeNotOursFits(t *testing.T) {
	for _, taken := range []*tmuxctl.PipeTakenError{{Pane: "%123456"}, {Pane: "%123456", Mark: "4242.abcd"}} {
		err := PipeNotOurs(taken)
		if n := utf8.RuneCountInString(err.Error()); n > Most || strings.HasSuffix(err.Error(), "…") {
			t.Errorf("%d characters (cut?): %s", n, err)
		}
		if !strings.Contains(err.Error(), "pane %123456") {
			t.Errorf("does not name the pane: %s", err)
		}
	}
	t.Log(PipeNotOurs(&tmuxctl.PipeTakenError{Pane: "%1"}))
}
