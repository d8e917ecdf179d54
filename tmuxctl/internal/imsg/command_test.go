package imsg

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeServer listens on a socket in a temporary directory and hands each
// connection to serve. It stands in for a tmux server that does something
// a real one is never seen doing.
func fakeServer(t *testing.T, serve func(*net.UnixConn)) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "imsg-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.AcceptUnix()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				serve(conn)
			}()
		}
	}()
	return sock
}

// readClient reads what a client sends up to and including MSG_COMMAND,
// noting whether any message came with a descriptor.
func readClient(conn *net.UnixConn) (msgs []Message, fds bool, err error) {
	var buf []byte
	for {
		b, oob := make([]byte, 64<<10), make([]byte, 1024)
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, oobn, _, _, err := conn.ReadMsgUnix(b, oob)
		if err != nil {
			return msgs, fds, err
		}
		fds = fds || oobn > 0
		buf = append(buf, b[:n]...)
		d := NewDecoder(bytes.NewReader(buf))
		msgs = msgs[:0]
		for {
			m, err := d.Next()
			if err != nil {
				break
			}
			msgs = append(msgs, m)
			if m.Type == MsgCommand {
				return msgs, fds, nil
			}
		}
	}
}

func send(conn net.Conn, t Type, data []byte) { conn.Write(Append(nil, t, data)) }

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// The client identifies as an ordinary UTF-8 command client: no control
// flag, no terminal, no descriptors; then sends the command.
func TestRunIdentifies(t *testing.T) {
	got := make(chan []Message, 1)
	gotFDs := make(chan bool, 1)
	sock := fakeServer(t, func(conn *net.UnixConn) {
		msgs, fds, err := readClient(conn)
		if err != nil {
			return
		}
		got <- msgs
		gotFDs <- fds
		send(conn, MsgExit, u32(0))
	})
	res, err := Run(context.Background(), Request{Socket: sock, Argv: []string{"list-panes", "-t", "%0"}, Environ: []string{"A=1", "B=two"}, Cwd: "/tmp", Term: "xterm"})
	if err != nil || res.Status != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	msgs := <-got
	if <-gotFDs {
		t.Error("the client passed a file descriptor")
	}
	var types []Type
	for _, m := range msgs {
		types = append(types, m.Type)
		if m.PeerID != ProtocolVersion {
			t.Errorf("message %d has peer id %d", m.Type, m.PeerID)
		}
		switch m.Type {
		case MsgIdentifyFlags:
			if f := binary.LittleEndian.Uint32(m.Data); uint64(f) != ClientUTF8 {
				t.Errorf("IDENTIFY_FLAGS %#x, want only CLIENT_UTF8", f)
			}
		case MsgIdentifyLongFlags:
			f := binary.LittleEndian.Uint64(m.Data)
			if f != ClientUTF8 || f&(ClientControl|ClientControlControl|ClientStartServer) != 0 {
				t.Errorf("IDENTIFY_LONGFLAGS %#x, want only CLIENT_UTF8", f)
			}
		case MsgIdentifyStdin, MsgIdentifyStdout:
			t.Errorf("sent %d, which passes a descriptor", m.Type)
		case MsgIdentifyCwd:
			if string(m.Data) != "/tmp\x00" {
				t.Errorf("cwd %q", m.Data)
			}
		case MsgIdentifyTTYName:
			if string(m.Data) != "\x00" {
				t.Errorf("ttyname %q, want none", m.Data)
			}
		case MsgCommand:
			if string(m.Data) != "\x03\x00\x00\x00list-panes\x00-t\x00%0\x00" {
				t.Errorf("command %q", m.Data)
			}
		}
	}
	want := []Type{MsgIdentifyFlags, MsgIdentifyLongFlags, MsgIdentifyTerm, MsgIdentifyFeatures, MsgIdentifyTTYName,
		MsgIdentifyCwd, MsgIdentifyClientPID, MsgIdentifyEnviron, MsgIdentifyEnviron, MsgIdentifyDone, MsgCommand}
	if !equalTypes(types, want) {
		t.Errorf("sent %v, want %v", types, want)
	}
}

func equalTypes(a, b []Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Streams are told apart by the descriptor the server names, not by
// their numbers; the exit status and an exit message come through.
func TestRunStreams(t *testing.T) {
	sock := fakeServer(t, func(conn *net.UnixConn) {
		if _, _, err := readClient(conn); err != nil {
			return
		}
		send(conn, MsgWriteOpen, append(append(u32(7), u32(2)...), u32(0)...))
		send(conn, MsgWriteOpen, append(append(u32(1), u32(1)...), u32(0)...))
		send(conn, MsgWrite, append(u32(7), "to stderr"...))
		send(conn, MsgWrite, append(u32(1), "to stdout"...))
		send(conn, MsgWriteClose, u32(7))
		send(conn, MsgWriteClose, u32(1))
		send(conn, MsgExit, append(u32(3), "bye\x00"...))
	})
	res, err := Run(context.Background(), Request{Socket: sock, Argv: []string{"x"}})
	if err != nil || res.Status != 3 || string(res.Stdout) != "to stdout" || string(res.Stderr) != "to stderrbye\n" {
		t.Errorf("Run = %d %q %q, %v", res.Status, res.Stdout, res.Stderr, err)
	}
}

// Any surprise is a SurpriseError, saying whether the command was sent.
func TestRunSurprises(t *testing.T) {
	for name, tc := range map[string]struct {
		reply []byte
		sent  bool
	}{
		"other protocol":   {[]byte{12, 0, 0, 0, 16, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}, false},
		"unknown message":  {Append(nil, 999, nil), true},
		"attach":           {Append(nil, MsgReady, nil), true},
		"shell":            {Append(nil, MsgShell, []byte("/bin/sh\x00")), true},
		"short exit":       {Append(nil, MsgExit, []byte{1, 0}), true},
		"cut off":          {Append(nil, MsgExit, u32(0))[:10], true},
		"malformed":        {[]byte{203, 0, 0, 0, 20, 0, 0, 0x80, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, true},
		"unknown stream":   {Append(nil, MsgWrite, append(u32(5), 'x')), true},
		"short write open": {Append(nil, MsgWriteOpen, u32(1)), true},
	} {
		sock := fakeServer(t, func(conn *net.UnixConn) {
			if _, _, err := readClient(conn); err != nil {
				return
			}
			conn.Write(tc.reply)
		})
		_, err := Run(context.Background(), Request{Socket: sock, Argv: []string{"x"}})
		var s *SurpriseError
		if !errors.As(err, &s) || s.Sent != tc.sent {
			t.Errorf("%s: %v, want a SurpriseError with Sent %v", name, err, tc.sent)
		}
	}
}

// A server that goes away at a message boundary is what the binary calls
// "server exited unexpectedly"; cancelling ends a command that waits.
func TestRunLostAndCancelled(t *testing.T) {
	sock := fakeServer(t, func(conn *net.UnixConn) { readClient(conn) })
	res, err := Run(context.Background(), Request{Socket: sock, Argv: []string{"x"}})
	if err != nil || res.Status != 1 || string(res.Stderr) != "server exited unexpectedly\n" {
		t.Errorf("lost server: %d %q, %v", res.Status, res.Stderr, err)
	}
	hold := fakeServer(t, func(conn *net.UnixConn) {
		readClient(conn)
		conn.SetReadDeadline(time.Time{})
		conn.Read(make([]byte, 1)) // until the client hangs up
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, Request{Socket: hold, Argv: []string{"wait-for", "c"}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled: %v", err)
	}
}

// "-" reads are served from memory in parts within the message limit,
// then READ_DONE; stdin is served once, as the binary's can be read once.
func TestRunServesStdin(t *testing.T) {
	type read struct {
		data []byte
		err  uint32
	}
	got := make(chan []read, 1)
	sock := fakeServer(t, func(conn *net.UnixConn) {
		if _, _, err := readClient(conn); err != nil {
			return
		}
		send(conn, MsgReadOpen, append(append(u32(4), u32(0)...), "-\x00"...))
		send(conn, MsgReadOpen, append(append(u32(5), u32(0)...), "-\x00"...))
		d := NewDecoder(conn)
		var reads [2]read
		for done := 0; done < 2; {
			m, err := d.Next()
			if err != nil {
				return
			}
			i := binary.LittleEndian.Uint32(m.Data) - 4
			switch m.Type {
			case MsgRead:
				if len(m.Data) > MaxPayload {
					return
				}
				reads[i].data = append(reads[i].data, m.Data[4:]...)
			case MsgReadDone:
				reads[i].err = binary.LittleEndian.Uint32(m.Data[4:])
				done++
			}
		}
		got <- reads[:]
		send(conn, MsgExit, u32(0))
	})
	in := bytes.Repeat([]byte("abc\x00"), 10000)
	if _, err := Run(context.Background(), Request{Socket: sock, Argv: []string{"load-buffer", "-"}, Stdin: in}); err != nil {
		t.Fatal(err)
	}
	reads := <-got
	if !bytes.Equal(reads[0].data, in) || reads[0].err != 0 {
		t.Errorf("first read: %d bytes, error %d", len(reads[0].data), reads[0].err)
	}
	if len(reads[1].data) != 0 || reads[1].err != 9 { // EBADF
		t.Errorf("second read: %d bytes, error %d; want EBADF", len(reads[1].data), reads[1].err)
	}
}

// Two kinds of request sent in turn each keep their identify messages:
// neither is built again.
func TestIdentityCacheKeepsTwo(t *testing.T) {
	var c identityCache
	a := Request{Term: "xterm", Cwd: "/", Environ: []string{"A=1", "B=2"}}
	b := Request{Term: "xterm", Cwd: "/", Environ: []string{"TMUX=x"}}
	ma, mb := c.of(a), c.of(b)
	if bytes.Equal(ma, mb) {
		t.Fatal("two environments gave the same identify messages")
	}
	for range 3 {
		if got := c.of(a); &got[0] != &ma[0] {
			t.Fatal("the first kind's messages were built again")
		}
		if got := c.of(b); &got[0] != &mb[0] {
			t.Fatal("the second kind's messages were built again")
		}
	}
	if got := c.of(Request{Term: "xterm", Cwd: "/tmp", Environ: b.Environ}); &got[0] == &mb[0] {
		t.Fatal("a different working directory reused another request's messages")
	}
}
