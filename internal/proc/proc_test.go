package proc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// bothWays runs test with /proc (where there is one) and as without it,
// through ps (where there is one), as on macOS.
func bothWays(t *testing.T, test func(t *testing.T)) {
	t.Run("proc", func(t *testing.T) {
		if !procfs() {
			t.Skip("no /proc")
		}
		test(t)
	})
	t.Run("ps", func(t *testing.T) {
		if _, err := exec.LookPath("ps"); err != nil {
			t.Skip("no ps")
		}
		saved := procfs
		procfs = func() bool { return false }
		defer func() { procfs = saved }()
		test(t)
	})
}

func TestAlive(t *testing.T) { bothWays(t, testAlive) }

func testAlive(t *testing.T) {
	if !Alive(os.Getpid()) || !GroupAlive(syscall.Getpgrp()) {
		t.Fatal("this process is not alive")
	}
	if Alive(0) || Alive(-1) {
		t.Error("pid 0 or -1 counted as alive")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	pid := cmd.Process.Pid
	if !Alive(pid) {
		t.Errorf("a running sleep (%d) is not alive", pid)
	}
	cmd.Process.Kill()
	// Exited and not yet reaped: a zombie, which holds nothing.
	for deadline := time.Now().Add(2 * time.Second); Alive(pid) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if procfs() && Alive(pid) {
		t.Errorf("a killed, unreaped sleep (%d) is still alive", pid)
	}
	cmd.Wait()
	if Alive(pid) {
		t.Errorf("a reaped sleep (%d) is still alive", pid)
	}
}

func TestStartedWithinAndSameName(t *testing.T) { bothWays(t, testStartedWithinAndSameName) }

func testStartedWithinAndSameName(t *testing.T) {
	child := exec.Command("sleep", "5")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	if !StartedWithin(child.Process.Pid, time.Minute) {
		t.Errorf("a child started just now did not start within a minute")
	}
	if StartedWithin(child.Process.Pid, 0) {
		t.Errorf("a child started within 0 s")
	}
	if !SameName(os.Getpid(), os.Getpid()) {
		t.Errorf("this process has not its own name")
	}
	if SameName(os.Getpid(), child.Process.Pid) {
		t.Errorf("this test binary has the name of sleep")
	}
	if StartedWithin(-1, time.Hour) || SameName(-1, -1) || Name(-1) != "" {
		t.Errorf("an unknown pid started recently or has a name")
	}
	if name := Name(child.Process.Pid); name != "sleep" {
		t.Errorf("Name of a sleep = %q", name)
	}
	// A process that is gone has no name, and started at no time.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	if name := Name(gone.Process.Pid); name != "" || StartedWithin(gone.Process.Pid, time.Hour) {
		t.Errorf("a reaped process: Name %q, StartedWithin an hour %v", name, StartedWithin(gone.Process.Pid, time.Hour))
	}
}

func TestHolding(t *testing.T) { bothWays(t, testHolding) }

func testHolding(t *testing.T) {
	word := "tmux-mcp-proc-test-" + strconv.Itoa(os.Getpid())
	if pid := Holding(word); pid != 0 {
		t.Fatalf("before it starts, process %d holds %q", pid, word)
	}
	cmd := exec.Command("sh", "-c", "sleep 30; exit 0", word) // $0: its command line holds word
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	if pid := Holding(word); pid != cmd.Process.Pid {
		t.Errorf("Holding(%q) = %d, want the shell that holds it (%d)", word, pid, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if pid := Holding(word); pid != 0 {
		t.Errorf("after it ended, process %d holds %q", pid, word)
	}
}

func TestParseElapsed(t *testing.T) {
	for in, want := range map[string]int{
		"00:00": 0, "00:07": 7, "12:34": 754, "01:00:00": 3600, "2-03:04:05": 2*86400 + 3*3600 + 4*60 + 5,
	} {
		if got, ok := parseElapsed(in); !ok || got != want {
			t.Errorf("parseElapsed(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "7", "a:b", "1:2:3:4", "-1:00", "x-00:01"} {
		if got, ok := parseElapsed(in); ok {
			t.Errorf("parseElapsed(%q) = %d, want refused", in, got)
		}
	}
}
