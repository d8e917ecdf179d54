package tmuxctl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// The native client is an ordinary command client: while its wait-for is
// in flight, list-clients (which lists clients attached to a session) does
// not show it, and nothing else does either.
func TestNativeClientNeverListed(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.WaitFor(ctx, "never-listed") }()
	// Give the waiting client time to connect: this only widens the window
	// in which it could be seen; the check is that it never is.
	time.Sleep(200 * time.Millisecond)
	for _, argv := range [][]string{{"list-clients"}, {"list-clients", "-F", "#{client_name} #{client_flags} #{client_control_mode}"}} {
		out, err := c.command(context.Background(), argv...)
		if err != nil || out != "" {
			t.Errorf("%v while a native wait-for runs: %q, %v", argv, out, err)
		}
	}
	select {
	case err := <-done:
		t.Fatalf("wait-for ended before its signal: %v", err)
	default:
	}
	if err := c.Signal(context.Background(), "never-listed"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("WaitFor after the signal: %v", err)
	}
	if c.Transport() != TransportNative {
		t.Errorf("transport %s, want native", c.Transport())
	}
}

// A cancelled wait-for ends at once: the connection closes and tmux drops
// the waiter.
func TestNativeWaitForCancelled(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.WaitFor(ctx, "cancelled"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitFor = %v, want the deadline", err)
	}
}

// A command too long for one tmux message is refused by tmux's name for it,
// whichever client sends it, before anything reaches the server.
func TestNativeTooLong(t *testing.T) {
	sock := tmuxtest.Server(t)
	for _, tr := range []string{TransportNative, TransportExec} {
		c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock, TmuxClient: tr})
		_, err := c.command(context.Background(), "set-option", "-g", "@long", strings.Repeat("x", 17000))
		var ce *CommandError
		if !errors.As(err, &ce) || ce.Message != "command too long" {
			t.Errorf("%s: %v, want tmux's \"command too long\"", tr, err)
		}
	}
}

// builtTmux is the tmux of version v built by the repository's build
// script under the user's cache directory, or "" when it is absent.
func builtTmux(v string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	p := filepath.Join(dir, "tmux-builds", "tmux-"+v, "bin", "tmux")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// A tmux binary older than 3.6 cannot talk to a 3.6 or later server at all
// ("server exited unexpectedly"). With that binary configured, the native
// client still runs every ordinary command on such a server.
func TestNativeOlderBinaryNewerServer(t *testing.T) {
	old := builtTmux("3.5a")
	if old == "" {
		t.Skip("needs tmux 3.5a built in the user cache's tmux-builds (scripts: build.sh 3.5a)")
	}
	for _, v := range []string{"3.6a", "3.7c"} {
		t.Run(v, func(t *testing.T) {
			newer := builtTmux(v)
			if newer == "" {
				t.Skipf("needs tmux %s built in the user cache's tmux-builds", v)
			}
			dir, err := os.MkdirTemp("", "tmux-mcp-test-")
			if err != nil {
				t.Fatal(err)
			}
			sock := filepath.Join(dir, "s")
			t.Cleanup(func() {
				exec.Command(newer, "-S", sock, "kill-server").Run()
				os.RemoveAll(dir)
			})
			if out, err := exec.Command(newer, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "80", "-y", "24", "cat").CombinedOutput(); err != nil {
				t.Fatalf("starting tmux %s: %v %s", v, err, out)
			}
			ctx := context.Background()
			spawned := New(Config{Binary: old, SocketPath: sock, TmuxClient: TransportExec})
			if _, err := spawned.command(ctx, "display-message", "-p", "#{version}"); err == nil {
				t.Logf("tmux 3.5a's binary talked to a %s server: the premise of this test no longer holds", v)
			}
			c := New(Config{Binary: old, SocketPath: sock})
			info, err := c.ServerInfo(ctx)
			if err != nil || info.Version != v {
				t.Fatalf("ServerInfo = %+v, %v", info, err)
			}
			created, err := c.NewWindow(ctx, "$0", NewWindowOptions{Name: "w", Spawn: Spawn{Argv: []string{"cat"}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.LoadBuffer(ctx, "b", []byte("through -\n")); err != nil {
				t.Fatal(err)
			}
			if data, err := c.BufferData(ctx, "b"); err != nil || string(data) != "through -\n" {
				t.Errorf("BufferData = %q, %v", data, err)
			}
			if err := c.PasteBuffer(ctx, created.Pane, "b", true, false); err != nil {
				t.Fatal(err)
			}
			panes, err := c.ListPanes(ctx, PaneScope{})
			if err != nil || len(panes) != 2 {
				t.Errorf("ListPanes = %v, %v", panes, err)
			}
			if _, err := c.Capture(ctx, created.Pane, CaptureOptions{}); err != nil {
				t.Error(err)
			}
			if _, err := c.Pane(ctx, "%99"); !errors.As(err, new(*NotFoundError)) {
				t.Errorf("a missing pane: %v, want a NotFoundError", err)
			}
			if err := c.KillWindow(ctx, created.Window); err != nil {
				t.Error(err)
			}
			if !c.atLeast(ctx, 3, 6) {
				t.Errorf("version gates read the binary's version (3.5a), not the %s server's", v)
			}
			if c.Transport() != TransportNative {
				t.Errorf("transport %s, want native", c.Transport())
			}
		})
	}
}

// fakeTmux is a server socket that answers every client with reply, and a
// "tmux binary" that prints its arguments: which one answered shows which
// client the runner used.
func fakeTmux(t *testing.T, reply []byte) (sock, binary string, conns *atomic.Int32) {
	t.Helper()
	dir, err := os.MkdirTemp("", "tmux-mcp-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock = filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	n := new(atomic.Int32)
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			go func() {
				defer conn.Close()
				d := imsg.NewDecoder(conn)
				for {
					m, err := d.Next()
					if err != nil {
						return
					}
					if m.Type == imsg.MsgCommand {
						conn.Write(reply)
					}
				}
			}()
		}
	}()
	binary = filepath.Join(dir, "tmux")
	if err := os.WriteFile(binary, []byte("#!/bin/sh\necho \"binary: $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return sock, binary, n
}

// A server speaking another protocol version ran nothing: the command
// goes to the binary, and so does every later one, said once on stderr.
func TestNativeFallsBackOnVersion(t *testing.T) {
	version := []byte{12, 0, 0, 0, 16, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0}
	sock, bin, conns := fakeTmux(t, version)
	c := New(Config{Binary: bin, SocketPath: sock})
	var notice bytes.Buffer
	c.tr.stderr = &notice
	for i := 0; i < 2; i++ {
		out, err := c.command(context.Background(), "list-sessions")
		if err != nil || out != "binary: -u -S "+sock+" list-sessions\n" {
			t.Errorf("command %d: %q, %v", i, out, err)
		}
	}
	if conns.Load() != 1 {
		t.Errorf("%d connections, want 1 (later commands go to the binary)", conns.Load())
	}
	if c.Transport() != TransportExec {
		t.Errorf("transport %s, want exec", c.Transport())
	}
	if got := notice.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "protocol version 9") {
		t.Errorf("notice %q, want one line naming the version", got)
	}
}

// A surprise after the command was sent may follow a command that ran: it
// is reported rather than run twice, and later commands use the binary.
func TestNativeFallsBackOnSurprise(t *testing.T) {
	unknown := imsg.Append(nil, 999, binary.LittleEndian.AppendUint32(nil, 0))
	sock, bin, _ := fakeTmux(t, unknown)
	c := New(Config{Binary: bin, SocketPath: sock})
	c.tr.stderr = new(bytes.Buffer)
	if _, err := c.command(context.Background(), "new-window"); err == nil || !strings.Contains(err.Error(), "may or may not have run") {
		t.Errorf("first command: %v, want the surprise reported", err)
	}
	if out, err := c.command(context.Background(), "list-sessions"); err != nil || !strings.HasPrefix(out, "binary: ") {
		t.Errorf("next command: %q, %v; want the binary's answer", out, err)
	}
}

// --tmux-client exec never opens the socket itself.
func TestExecTransportConfigured(t *testing.T) {
	sock, bin, conns := fakeTmux(t, nil)
	c := New(Config{Binary: bin, SocketPath: sock, TmuxClient: TransportExec})
	if out, err := c.command(context.Background(), "list-sessions"); err != nil || !strings.HasPrefix(out, "binary: ") {
		t.Errorf("%q, %v", out, err)
	}
	if conns.Load() != 0 || c.Transport() != TransportExec {
		t.Errorf("%d connections, transport %s", conns.Load(), c.Transport())
	}
}

// A command line of readers sends only TMUX and TMUX_PANE; one that holds
// any other command anywhere sends the whole environment.
func TestEnvironFor(t *testing.T) {
	t.Setenv("TMUX", "/tmp/sock,1,0")
	t.Setenv("TMUX_PANE", "%3")
	t.Setenv("TMUX_MCP_ENV_PROBE", "x")
	has := func(env []string, kv string) bool {
		for _, e := range env {
			if e == kv {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		argv []string
		all  bool
	}{
		{[]string{"list-panes", "-a", "-F", "#{pane_id}"}, false},
		{[]string{"list-panes", "-t", "%0", ";", "capture-pane", "-p", "-t", "%0"}, false},
		{[]string{"display-message", "-p", "new-session"}, false}, // an argument, not a command
		{[]string{"new-session", "-d"}, true},
		{[]string{"list-panes", ";", "new-window", "-d"}, true},
		{[]string{"if-shell", "-F", "1", "list-panes"}, true},
		{[]string{"display-message", "-p", `x\;`, "new-window"}, false}, // "\;" is text
	} {
		env := environFor(tc.argv)
		if !has(env, "TMUX=/tmp/sock,1,0") || !has(env, "TMUX_PANE=%3") {
			t.Errorf("%q: TMUX or TMUX_PANE missing from %q", tc.argv, env)
		}
		if got := has(env, "TMUX_MCP_ENV_PROBE=x"); got != tc.all {
			t.Errorf("%q: whole environment sent = %v, want %v", tc.argv, got, tc.all)
		}
		if !tc.all && len(env) != 2 {
			t.Errorf("%q: sent %q, want TMUX and TMUX_PANE alone", tc.argv, env)
		}
	}
}

// A reader sent with the smaller environment still finds the client's own
// pane from TMUX_PANE, and a spawning command still hands the pane the
// client's PATH.
func TestNativeEnvironmentStillServes(t *testing.T) {
	sock := tmuxtest.Server(t)
	// Without a target, tmux takes the most recently made session, with
	// %1, unless TMUX_PANE says the client runs in %0.
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "other")
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	if out, err := c.command(ctx, "display-message", "-p", "#{pane_id}"); err != nil || strings.TrimSpace(out) != "%1" {
		t.Fatalf("display-message without TMUX_PANE: %q, %v; want %%1", out, err)
	}
	t.Setenv("TMUX_PANE", "%0")
	if out, err := c.command(ctx, "display-message", "-p", "#{pane_id}"); err != nil || strings.TrimSpace(out) != "%0" {
		t.Fatalf("display-message with TMUX_PANE=%%0: %q, %v", out, err)
	}
	dir := t.TempDir()
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	if _, err := c.command(ctx, "new-session", "-d", "-s", "pathprobe", "sh", "-c", `echo "$PATH" > `+filepath.Join(dir, "path")+`; exec cat`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := os.ReadFile(filepath.Join(dir, "path"))
		if strings.HasPrefix(string(got), dir+":") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new session's PATH is %q, want it to start with %s", got, dir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
