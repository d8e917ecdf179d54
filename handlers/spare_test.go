package handlers

import (
	"context"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

func spareHandlers(t *testing.T) (*Handlers, string) {
	t.Helper()
	h, _, sock := testHandlersWith(t, DefaultLimits, tmuxctl.Config{}, live.Options{})
	t.Cleanup(h.Close)
	return h, sock
}

func readySpare(t *testing.T, h *Handlers) *spare {
	t.Helper()
	for range 400 {
		h.spares.mu.Lock()
		s := h.spares.ready
		h.spares.mu.Unlock()
		if s != nil {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no spare pane was made")
	return nil
}

// TestSpareSameResult: a program run on a spare pane gets the argv
// (quotes, newlines, ";", "#("), cwd and environment it would get in a
// pane of its own, and the same result. Bytes that are not UTF-8 reach
// it as they are (tmux's own path mangles them: not compared).
func TestSpareSameResult(t *testing.T) {
	h, _ := spareHandlers(t)
	ctx := context.Background()
	in := gen.RunProgramInput{Argv: []string{"sh", "-c", `printf '[%s]\n' "$@"; pwd; printf '<%s>\n' "$GREETING"; exit 3`, "sh",
		"a b", "it's", `"q"`, "$HOME", ";", "#(echo x)", "line\n.\nbreak", "", "-n"},
		Cwd: ptr("/usr"), Env: map[string]string{"GREETING": "hello 'you'; #{x}\n$y"}, TimeoutMs: 10000}
	first, err := h.RunProgram(ctx, in) // the usual path; a spare is made after
	if err != nil {
		t.Fatal(err)
	}
	s := readySpare(t, h)
	second, err := h.RunProgram(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if second.PaneID != string(s.sp.Created.Pane) {
		t.Fatalf("the second call ran in %s, not on the spare %s", second.PaneID, s.sp.Created.Pane)
	}
	if first.Output != second.Output || *first.ExitStatus != 3 || *second.ExitStatus != 3 || !second.PaneClosed || second.Outcome != first.Outcome {
		t.Errorf("usual path: %q %v %v; spare: %q %v %v", first.Output, *first.ExitStatus, first.PaneClosed, second.Output, *second.ExitStatus, second.PaneClosed)
	}
	readySpare(t, h)
	raw, err := h.RunProgram(ctx, gen.RunProgramInput{Argv: []string{"sh", "-c", `printf %s "$1" | od -An -tx1 | tr -d ' \n'`, "sh", "\xff\xfe'"}, TimeoutMs: 10000})
	if err != nil || raw.Output != "fffe27" {
		t.Errorf("bytes not UTF-8 on a spare: %q, %v", raw.Output, err)
	}
}

// TestSpareKilledByOthers: a spare whose pane someone killed is given
// up, the call runs its program the usual way, and a new spare is made.
func TestSpareKilledByOthers(t *testing.T) {
	h, _ := spareHandlers(t)
	ctx := context.Background()
	if _, err := h.RunProgram(ctx, gen.RunProgramInput{Argv: []string{"true"}, TimeoutMs: 10000}); err != nil {
		t.Fatal(err)
	}
	s := readySpare(t, h)
	if err := h.tmux.KillPane(ctx, s.sp.Created.Pane); err != nil {
		t.Fatal(err)
	}
	out, err := h.RunProgram(ctx, gen.RunProgramInput{Argv: []string{"echo", "hi"}, TimeoutMs: 10000})
	if err != nil || out.Output != "hi\n" || out.ExitStatus == nil || *out.ExitStatus != 0 || out.PaneID == string(s.sp.Created.Pane) {
		t.Fatalf("run_program after the spare was killed = %+v, %v", out, err)
	}
	if again := readySpare(t, h); again == s {
		t.Fatal("the killed spare was kept")
	}
}

func ptr[T any](v T) *T { return &v }
