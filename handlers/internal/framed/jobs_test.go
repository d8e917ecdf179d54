package framed

import (
	"os/exec"
	"syscall"
	"testing"
)

// TestJobExists: a stopped process group exists until it is killed and
// reaped (a zombie leader counts as gone where /proc tells).
func TestJobExists(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	pgid := cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGSTOP)
	if !jobExists(pgid) {
		t.Fatalf("stopped group %d reported gone", pgid)
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	cmd.Wait()
	if jobExists(pgid) {
		t.Fatalf("killed and reaped group %d reported alive", pgid)
	}
	if !jobExists(0) {
		t.Error("an unknown job (0) must count as existing")
	}
}
