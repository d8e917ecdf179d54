package e2e

// Tests of how tmux-mcp starts: it answers initialize at once, while its
// tools are added and the hub sweeps what dead instances left in tmux, and
// holds every other request until both are done.

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/mcptest"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// deadPID returns the process id of a process that has exited and been
// reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestStartupHoldsCallsForTheSweep plants what a dead instance leaves (a
// private paste buffer, a hold on a pane's remain-on-exit, and a tap's mark
// whose socket never answers, which keeps the sweep busy for a second),
// then calls tools the moment initialize is answered: each call sees tmux
// as the sweep leaves it.
func TestStartupHoldsCallsForTheSweep(t *testing.T) {
	sock := tmuxtest.Server(t)
	dead := strconv.Itoa(deadPID(t))
	buffer := tmuxctl.PasteBufferPrefix + dead + "-0123abcd"
	tmuxtest.Run(t, sock, "set-buffer", "-b", buffer, "left by a dead instance")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", "remain-on-exit", "on")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", tmuxctl.HoldOption, dead+".0123abcd -")
	// A tap that has not recorded its pid yet is asked on its socket,
	// twice, a second apart: this one never answers.
	tapSocket := filepath.Join(t.TempDir(), "taps", "0123456789abcdef0123456789abcdef.sock")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", tmuxctl.PipeOption, "tap.0123456789abcdef0123456789abcdef "+tapSocket)

	m := launchMCP(t, sock, "", "--toolsets", "all")
	began := time.Now()
	buffers := m.startTool("list_buffers", map[string]any{})
	options := m.startTool("show_option", map[string]any{"scope": "pane", "targetId": "%0"})

	out, err := m.answer("list_buffers", buffers)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range out["buffers"].([]any) {
		if name := b.(map[string]any)["name"]; name == buffer {
			t.Errorf("list_buffers right after initialize lists %s, a dead instance's buffer the start-up sweep deletes", name)
		}
	}
	out, err = m.answer("show_option", options)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out["options"].([]any) {
		o := o.(map[string]any)
		if name := o["name"].(string); strings.HasPrefix(name, ourOptions) || name == "remain-on-exit" {
			t.Errorf("show_option on %%0 right after initialize shows %s=%v, which the start-up sweep removes", name, o["value"])
		}
	}
	t.Logf("the first calls answered %v after initialize", time.Since(began))
}

// TestStartupAnswersWithTmuxStopped starts tmux-mcp on a stopped tmux
// server (SIGSTOP): initialize is answered without waiting for tmux, ping
// too while a tool call is held for the sweep, which waits out tmux's
// command deadline; the held call is then answered, and once tmux runs
// again, calls work.
func TestStartupAnswersWithTmuxStopped(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out tmux command deadlines")
	}
	sock := tmuxtest.Server(t)
	pid := serverPID(t, sock)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	t.Cleanup(func() {
		if stopped {
			syscall.Kill(pid, syscall.SIGCONT)
		}
	})

	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	p, err := mcptest.StartProcess(serverCommand(bin, sock, privateTmpdir(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(stopGrace, replyBound) })
	m := &mcpServer{Process: p}
	// Half of tmux's command deadline: waiting for tmux at all would take
	// the whole of it.
	if _, err := p.Initialize("tmux-mcp-tests", tmuxctl.CommandTimeout/2); err != nil {
		t.Fatalf("initialize with tmux stopped: %v", err)
	}
	held := m.startTool("list_panes", map[string]any{})
	if _, err := m.Call("ping", map[string]any{}, tmuxctl.CommandTimeout/2); err != nil {
		t.Fatalf("ping with a call held for the sweep: %v", err)
	}
	r, err := m.Wait(held, wedgedReplyBound)
	if err != nil {
		t.Fatalf("list_panes held for the sweep with tmux stopped was never answered: %v", err)
	}
	if !strings.Contains(string(r), "did not answer") {
		t.Errorf("list_panes with tmux stopped answered %s, want tmux did not answer", r)
	}

	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	if out, err := m.tool("list_panes", map[string]any{}); err != nil || len(out["panes"].([]any)) == 0 {
		t.Errorf("list_panes once tmux runs again: %v %v", out, err)
	}
}
