package proc

import (
	"os"
	"os/exec"
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
