package proc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestAlive(t *testing.T) {
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
	if _, err := os.Stat("/proc/self/stat"); err == nil && Alive(pid) {
		t.Errorf("a killed, unreaped sleep (%d) is still alive", pid)
	}
	cmd.Wait()
	if Alive(pid) {
		t.Errorf("a reaped sleep (%d) is still alive", pid)
	}
}

func TestStartedWithinAndSameName(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
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
	if StartedWithin(-1, time.Hour) || SameName(-1, -1) {
		t.Errorf("an unknown pid started recently or has a name")
	}
}

func TestHolding(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc")
	}
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
