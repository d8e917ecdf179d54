package tmuxctl

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/imsg"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// equivalenceCase is one command line for both clients. stdin, when set, is
// served to "-" reads.
type equivalenceCase struct {
	name  string
	cmds  [][]string
	stdin []byte
}

// equivalenceCorpus is the commands tmuxctl sends, in the shapes it sends
// them: every format it lists with, the refusals classify recognises,
// buffers in and out, arguments near tmux's message limit, and text that
// tmux's parsers treat specially.
func equivalenceCorpus(t *testing.T, dir string) []equivalenceCase {
	var cs []equivalenceCase
	add := func(name string, stdin []byte, cmds ...[]string) {
		cs = append(cs, equivalenceCase{name: name, cmds: cmds, stdin: stdin})
	}
	// Each format with the commands tmuxctl lists it with. (Not every
	// pairing: tmux 3.2a's server crashes on list-buffers -F
	// '#{session_created}', whichever client asks.)
	uses := []struct {
		name string
		f    format
		cmds [][]string
	}{
		{"session", sessionFormat, [][]string{{"list-sessions"}, {"list-sessions", "-f", "#{==:#{session_name},main}"}}},
		{"window", windowFormat, [][]string{{"list-windows", "-a"}, {"list-windows", "-t", "main"}}},
		{"pane", paneFormat, [][]string{{"list-panes", "-a"}, {"list-panes", "-s", "-t", "main"}, {"list-panes", "-t", "%0"}}},
		{"detail", detailFormat, [][]string{{"list-panes", "-t", "%0"}, {"display-message", "-p", "-t", "%0"}, {"display-message", "-p", "-t", "%999"}}},
		{"created", createdFormat, [][]string{{"list-panes", "-t", "%1"}, {"display-message", "-p", "-t", "%1"}}},
		{"ids", idsFormat, [][]string{{"list-panes", "-a"}, {"display-message", "-p"}}},
		{"server", serverFormat, [][]string{{"display-message", "-p"}}},
		{"buffer", bufferFormat, [][]string{{"list-buffers"}}},
	}
	for _, u := range uses {
		spec, _, _ := u.f.layout()
		for _, cmd := range u.cmds {
			if cmd[0] == "display-message" {
				add(strings.Join(cmd, " ")+" "+u.name, nil, append(slices.Clone(cmd), spec))
			} else {
				add(strings.Join(cmd, " ")+" "+u.name, nil, append(slices.Clone(cmd), "-F", spec))
			}
		}
	}
	for _, v := range []string{"pane_dead", "pane_dead_status", "pane_pipe", "pane_in_mode", "pane_current_path", "@equivalence"} {
		add("pane variable "+v, nil, []string{"list-panes", "-t", "%0", "-F", "#{pane_id}\t#{" + v + "}"})
	}
	add("capture", nil, []string{"capture-pane", "-p", "-t", "%0"})
	add("capture -J -e history", nil, []string{"capture-pane", "-p", "-J", "-e", "-S", "-", "-E", "-", "-t", "%0"})
	add("show-options", nil, []string{"show-options", "-g"})
	add("show-options -p", nil, []string{"show-options", "-p", "-t", "%0"})
	add("show-options -w value", nil, []string{"show-options", "-w", "-v", "-t", "@0", "remain-on-exit"})
	add("show-option user", nil, []string{"show-options", "-p", "-v", "-t", "%0", "@equivalence"})
	add("show-environment", nil, []string{"show-environment", "-g", "EQUIVALENCE"})
	add("show-hooks", nil, []string{"show-hooks", "-g"})
	add("has-session", nil, []string{"has-session", "-t", "main"})
	add("wait-for -S", nil, []string{"wait-for", "-S", "equivalence-latched"})
	add("list-keys", nil, []string{"list-keys", "-T", "copy-mode"})

	// Refusals, each as tmux words it.
	add("missing pane", nil, []string{"list-panes", "-t", "%999"})
	add("missing window", nil, []string{"list-panes", "-t", "@999"})
	add("missing session", nil, []string{"has-session", "-t", "no-such-session"})
	add("missing buffer", nil, []string{"show-buffer", "-b", "no-such-buffer"})
	add("bad option", nil, []string{"set-option", "-g", "no-such-option", "1"})
	add("bad option value", nil, []string{"set-option", "-g", "base-index", "x"})
	add("unknown command", nil, []string{"no-such-command"})
	add("bad flag", nil, []string{"list-panes", "-Q"})
	add("bad format", nil, []string{"display-message", "-p", "#{"})
	add("refusal in a list", nil, []string{"display-message", "-p", "first"}, []string{"list-panes", "-t", "%999"}, []string{"display-message", "-p", "never"})
	add("source-file missing", nil, []string{"source-file", filepath.Join(dir, "no-such-file")})

	// Buffers in through "-" and out through show-buffer and save-buffer -.
	text := []byte("one\ntwo\n\x00three\xff\xfe, ünïcödé, #(true) ; #{pane_id}\n")
	big := bytes.Repeat([]byte("0123456789abcdef"), 40<<10) // 640 KiB: many MSG_READ parts
	add("load-buffer -", text, []string{"load-buffer", "-b", "eq", "-"}, []string{"show-buffer", "-b", "eq"}, []string{"save-buffer", "-b", "eq", "-"}, []string{"delete-buffer", "-b", "eq"})
	add("load-buffer - big", big, []string{"load-buffer", "-b", "eq", "-"}, []string{"save-buffer", "-b", "eq", "-"}, []string{"delete-buffer", "-b", "eq"})
	add("load-buffer - empty", []byte{}, []string{"load-buffer", "-b", "eq", "-"}, []string{"show-buffer", "-b", "eq"})
	add("load-buffer - no stdin", nil, []string{"load-buffer", "-b", "eq2", "-"}, []string{"show-buffer", "-b", "eq2"})
	add("load-buffer - twice", text, []string{"load-buffer", "-b", "eq3", "-"}, []string{"load-buffer", "-b", "eq3", "-"}, []string{"show-buffer", "-b", "eq3"})
	add("set-buffer then show", nil, []string{"set-buffer", "-b", "eq4", "x;y ; z"}, []string{"show-buffer", "-b", "eq4"}, []string{"delete-buffer", "-b", "eq4"})
	cmdFile := filepath.Join(dir, "commands")
	if err := os.WriteFile(cmdFile, []byte("display-message -p 'from a file'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	add("source-file", nil, []string{"start-server"}, []string{"source-file", cmdFile})

	// Text tmux's parsers treat specially.
	special := map[string]string{
		"utf-8":           "ünïcödé ✓ 日本語",
		"bad utf-8":       "a\xff\xfeb\xc3",
		"#(":              "#(echo ran)",
		"#(doubled":       literalFormat("#(echo ran) #{pane_id}"),
		"semicolon":       "a;",
		"lone semicolon":  ";",
		"escaped":         `a\;`,
		"quotes":          `'"$HOME' ~ {}`,
		"control bytes":   "\x01\x1b[31mred\t",
		"empty":           "",
		"trailing spaces": "x   ",
	}
	for _, name := range slices.Sorted(maps.Keys(special)) {
		s := special[name]
		add("display "+name, nil, []string{"display-message", "-p", s})
		add("set and show "+name, nil, []string{"set-option", "-p", "-t", "%0", "@equivalence", s}, []string{"show-options", "-p", "-v", "-t", "%0", "@equivalence"})
	}

	// Arguments around the message limit: the packed argv may hold
	// MaxMessage-4 bytes by tmux's own check, and one imsg MaxPayload-4.
	for _, size := range []int{8192, imsg.MaxPayload - 5, imsg.MaxPayload - 4, imsg.MaxPayload - 3, imsg.MaxMessage - 4, imsg.MaxMessage - 3, 20000} {
		fixed := len("display-message") + 1 + len("-p") + 1 + 1
		add("argv of "+itoa(size)+" bytes", nil, []string{"display-message", "-p", strings.Repeat("x", size-fixed)})
	}
	return cs
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestNativeMatchesExec runs every command of the corpus through the native
// client and through the tmux binary, on the same private server, and
// wants the same stdout, stderr and exit status, byte for byte. It runs on
// whatever tmux TMUX_MCP_TEST_TMUX names.
func TestNativeMatchesExec(t *testing.T) {
	sock := tmuxtest.Server(t)
	dir := t.TempDir()
	tmuxtest.Run(t, sock, "set-environment", "-g", "EQUIVALENCE", "yes")
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", "@equivalence", "v")
	tmuxtest.Run(t, sock, "set-buffer", "-b", "kept", "buffer text")
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "cat")
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	for _, tc := range equivalenceCorpus(t, dir) {
		full, err := commandLine(tc.cmds)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Verbose() {
			t.Logf("%s", tc.name)
		}
		// A pane's state can move between the two runs (a shell drawing
		// its prompt, the cursor with it): a real difference shows on
		// every try.
		var native, spawned reply
		for try := 0; try < 3; try++ {
			native, err = c.runNative(ctx, full, tc.stdin)
			if err != nil {
				break
			}
			spawned, err = c.runExec(ctx, full, tc.stdin)
			if err != nil || sameReply(native, spawned) {
				break
			}
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !sameReply(native, spawned) {
			t.Errorf("%s:\nnative status %d stdout %q stderr %q\nexec   status %d stdout %q stderr %q",
				tc.name, native.status, clip(native.stdout), clip(native.stderr), spawned.status, clip(spawned.stdout), clip(spawned.stderr))
			if i := firstDifference(native.stdout, spawned.stdout); i >= 0 {
				t.Errorf("stdout differs from byte %d: native %q, exec %q", i, clip(native.stdout[i:]), clip(spawned.stdout[i:]))
			}
		}
	}
	if c.Transport() != TransportNative {
		t.Errorf("transport is %s after the corpus", c.Transport())
	}
}

// TestNativeSaveBufferToFile: save-buffer to a path is written by the
// client (tmux asks it to open the file), the same bytes either way.
func TestNativeSaveBufferToFile(t *testing.T) {
	sock := tmuxtest.Server(t)
	dir := t.TempDir()
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ctx := context.Background()
	text := []byte("saved\x00\xff text\n")
	if _, err := c.commandsWithInput(ctx, text, []string{"load-buffer", "-b", "s", "-"}); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct {
		name string
		fn   func(context.Context, []string, []byte) (reply, error)
	}{{"native", c.runNative}, {"exec", c.runExec}} {
		file := filepath.Join(dir, run.name)
		for _, flags := range [][]string{{}, {"-a"}} {
			r, err := run.fn(ctx, slicesConcat([]string{"save-buffer"}, flags, []string{"-b", "s", file}), nil)
			if err != nil || r.status != 0 {
				t.Fatalf("%s: save-buffer %v: %v %q", run.name, flags, err, r.stderr)
			}
		}
		got, err := os.ReadFile(file)
		if want := append(append([]byte{}, text...), text...); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: file holds %q, %v; want %q", run.name, got, err, want)
		}
	}
}

func slicesConcat(ss ...[]string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s...)
	}
	return out
}

// TestNativeNoServer: where no server listens the native client says so in
// the binary's words, and the runner leaves the command to the binary.
func TestNativeNoServer(t *testing.T) {
	if _, err := exec.LookPath(tmuxtest.Binary()); err != nil {
		t.Skip("tmux not installed")
	}
	dir, err := os.MkdirTemp("", "tmux-mcp-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	missing := filepath.Join(dir, "missing")
	refused := filepath.Join(dir, "refused")
	l, err := net.Listen("unix", refused)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close() // the file stays, nobody listens: ECONNREFUSED
	for _, sock := range []string{missing, refused} {
		c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
		argv := []string{"list-sessions"}
		_, nerr := c.runNative(context.Background(), argv, nil)
		var none *imsg.NoServerError
		if !errors.As(nerr, &none) {
			t.Fatalf("%s: native: %v, want a NoServerError", sock, nerr)
		}
		spawned, err := c.runExec(context.Background(), argv, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimSpace(string(spawned.stderr)); nerr.Error() != want {
			t.Errorf("native says %q, the binary %q", nerr.Error(), want)
		}
		if _, err := c.command(context.Background(), argv...); !errors.Is(err, ErrServerGone) {
			t.Errorf("%s: list-sessions: %v, want ErrServerGone", sock, err)
		}
		if c.Transport() != TransportNative {
			t.Errorf("no server made the client fall back: %s", c.Transport())
		}
	}
}

// sameReply compares two replies byte for byte, but for one thing only
// the binary can print: tmux 3.2a's binary parses the command itself
// first (to see whether it starts a server), and getopt then complains on
// the binary's own stderr ("tmux: unknown option -- Q") before the server
// says the same in its words.
func sameReply(native, spawned reply) bool {
	stderr := spawned.stderr
	if rest, ok := bytes.CutPrefix(stderr, []byte("tmux: unknown option -- ")); ok {
		if _, after, ok := bytes.Cut(rest, []byte("\n")); ok {
			stderr = after
		}
	}
	return native.status == spawned.status && bytes.Equal(native.stdout, spawned.stdout) && bytes.Equal(native.stderr, stderr)
}

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:150]) + "…" + string(b[len(b)-150:])
	}
	return string(b)
}
