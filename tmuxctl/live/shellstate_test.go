package live

import (
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

func TestStreamFollowsShellMarks(t *testing.T) {
	s := newStream(nil, "%1", 1<<16)
	read := func(c *ShellCommand) string {
		t.Helper()
		chunk, err := s.Read(c.Start)
		if err != nil {
			t.Fatal(err)
		}
		return string(chunk.Text[:c.End-c.Start])
	}
	if st := s.Shell(); st.Marked || st.Running != nil || st.Last != nil {
		t.Fatalf("a new stream knows %+v", st)
	}
	s.appendOutput([]byte("\x1b]133;A\a$ \x1b]133;B\a"))
	if st := s.Shell(); !st.Marked || st.Running != nil || st.Last != nil {
		t.Fatalf("at the prompt: %+v", st)
	}
	// An empty command line: a D with no C is no command.
	s.appendOutput([]byte("\r\n\x1b]133;D;0\a\x1b]133;A\a$ \x1b]133;B\a"))
	if st := s.Shell(); st.Seq != 0 || st.Last != nil {
		t.Fatalf("after an empty line: %+v", st)
	}
	// The C mark split across two reads.
	s.appendOutput([]byte("false; echo hi\r\n\x1b]13"))
	s.appendOutput([]byte("3;C\x1b\\hi\r\n"))
	st := s.Shell()
	if st.Running == nil || st.Running.Seq != 1 || st.Last != nil {
		t.Fatalf("running: %+v", st)
	}
	s.appendOutput([]byte("there\r\n\x1b]133;D;7\a\x1b]133;A\a$ "))
	st = s.Shell()
	if st.Running != nil || st.Last == nil || st.Last.Status != 7 || st.Last.Seq != 1 {
		t.Fatalf("ended: %+v", st)
	}
	if got := read(st.Last); got != "hi\nthere\n" {
		t.Errorf("output %q", got)
	}
	// A prompt with no D ends the command with no status.
	s.appendOutput([]byte("\x1b]133;C\abusy\x1b]133;A\a$ "))
	if st := s.Shell(); st.Last.Seq != 2 || st.Last.Status != frame.NoStatus || read(st.Last) != "busy" {
		t.Fatalf("no D: %+v", st.Last)
	}
	// Shell marks never push a frame marker out.
	s.appendOutput([]byte(frame.Prefix + "n;start\a"))
	for range 100 {
		s.appendOutput([]byte("\x1b]133;A\a$ \x1b]133;B\a"))
	}
	if _, ok := s.FindMarker("n", frame.Start); !ok {
		t.Error("shell marks pushed the start marker out")
	}
}
