package mcptest

import (
	"os"
	"os/exec"
	"time"
)

// A Process is an MCP server running as a subprocess, with a [Client] on
// its standard input and output. Its stdio are raw pipes, so a test can
// close its input (EOF) or signal it (by its pid) while calls are in
// flight.
type Process struct {
	*Client
	Cmd *exec.Cmd

	stdin   *os.File // the write end of its standard input
	stdout  *os.File // the read end of its standard output
	exited  chan struct{}
	waitErr error
}

// StartProcess starts cmd (its Stderr, Env and Dir as the caller set them)
// with pipes on its standard input and output.
func StartProcess(cmd *exec.Cmd) (*Process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &Process{Client: New(outR, inW), Cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// PID returns the process id.
func (p *Process) PID() int { return p.Cmd.Process.Pid }

// CloseInput closes the server's standard input: EOF.
func (p *Process) CloseInput() error { return p.stdin.Close() }

// HasExited reports whether the process has exited.
func (p *Process) HasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// AwaitExit waits at most bound for the process to exit.
func (p *Process) AwaitExit(bound time.Duration) bool {
	select {
	case <-p.exited:
		return true
	case <-time.After(bound):
		return false
	}
}

// ExitErr returns what waiting for the process returned; call it only
// after it has exited.
func (p *Process) ExitErr() error {
	<-p.exited
	return p.waitErr
}

// Stop ends the process at a test's cleanup: EOF, then SIGKILL (by its
// pid) if it has not exited within grace, and closes the pipes.
func (p *Process) Stop(grace, bound time.Duration) {
	p.stdin.Close()
	if !p.AwaitExit(grace) {
		p.Cmd.Process.Kill()
		p.AwaitExit(bound)
	}
	p.stdout.Close()
}

// CloseOutput closes the read end of the server's standard output, so its
// next write fails (EPIPE, SIGPIPE).
func (p *Process) CloseOutput() error { return p.stdout.Close() }
