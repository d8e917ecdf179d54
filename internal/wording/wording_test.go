package wording

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// TestRefusalsNeverShowArgv: tmux's refusal is worded with its command and
// message only; an argument (here a secret in -e) never reaches the agent.
func TestRefusalsNeverShowArgv(t *testing.T) {
	ce := &tmuxctl.CommandError{Argv: []string{"new-window", "-e", "API_TOKEN=secret", "-F", "#{pane_id}"}, Message: "create window failed: index in use"}
	err := Explain(context.Background(), nil, ce)
	if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "#{") {
		t.Errorf("argv leaked: %v", err)
	}
	if !strings.Contains(err.Error(), "new-window") || !strings.Contains(err.Error(), "index in use") {
		t.Errorf("lost tmux's words: %v", err)
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
