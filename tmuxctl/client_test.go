package tmuxctl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// tmuxBound is how long a test lets tmux take to do what it was told (a
// pane to die, a waiter to end): generous, so a loaded machine passes.
const tmuxBound = 10 * time.Second

func TestEscapeArgs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{";", `\;`},
		{"a;", `a\;`},
		{`a\;`, `a\\;`},
		{";;", `;\;`},
		{"a;b", "a;b"},
		{"", ""},
	} {
		if got := escapeArgs([]string{tc.in})[0]; got != tc.want {
			t.Errorf("escapeArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Version
		err  bool
	}{
		{"tmux 3.3a\n", Version{3, 3, "a"}, false},
		{"tmux 3.2", Version{3, 2, ""}, false},
		{"tmux next-3.5", Version{3, 5, ""}, false},
		{"tmux 3.4-rc", Version{3, 4, "-rc"}, false},
		{"tmux master", Version{}, true},
		{"screen 4.0", Version{}, true},
		{"", Version{}, true},
	} {
		got, err := ParseVersion(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, err %v", tc.in, got, err, tc.want, tc.err)
		}
	}
	if !(Version{3, 3, "a"}).AtLeast(3, 2) || (Version{3, 1, "c"}).AtLeast(3, 2) || !(Version{4, 0, ""}).AtLeast(3, 9) {
		t.Error("AtLeast compares major then minor")
	}
}

func TestSignalName(t *testing.T) {
	for n, want := range map[int]string{15: "SIGTERM", 9: "SIGKILL", 2: "SIGINT", 1: "SIGHUP", 64: "SIG64", 0: "SIG0"} {
		if got := SignalName(n); got != want {
			t.Errorf("SignalName(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	var nf *NotFoundError
	if err := classify(&CommandError{Argv: []string{"x"}, Message: "can't find pane: %9"}); !errors.As(err, &nf) || nf.Kind != "pane" || nf.ID != "%9" {
		t.Errorf("pane refusal classified as %#v", err)
	}
	for _, msg := range []string{"no server running on /tmp/x", "error connecting to /tmp/x (No such file or directory)", "server exited unexpectedly"} {
		if err := classify(&CommandError{Argv: []string{"x"}, Message: msg}); !errors.Is(err, ErrServerGone) {
			t.Errorf("%q not classified as server gone", msg)
		}
	}
	var ce *CommandError
	if err := classify(&CommandError{Argv: []string{"x"}, Message: "unknown command: y"}); errors.As(err, &nf) || !errors.As(err, &ce) {
		t.Errorf("other refusal classified as %#v", err)
	}
}

// TestFormatSurvivesHostileValues proves rows and fields split correctly
// whatever a value contains, including the separators of an earlier call.
func TestFormatSurvivesHostileValues(t *testing.T) {
	f := format{"a", "b"}
	spec, fieldSep, rowSep := f.layout()
	if !strings.Contains(spec, "#{a}") || !strings.Contains(spec, "#{b}") {
		t.Fatalf("spec %q lacks the variables", spec)
	}
	hostile := "x\ty\nz" + "_00R\n" + "#{b};"
	out := hostile + fieldSep + "2" + rowSep + "3" + fieldSep + "" + rowSep
	rows, err := f.parse(out, fieldSep, rowSep)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0]["a"] != hostile || rows[0]["b"] != "2" || rows[1]["a"] != "3" || rows[1]["b"] != "" {
		t.Errorf("rows = %q", rows)
	}
	if _, err := f.parse("only"+fieldSep+"x", fieldSep, rowSep); err == nil {
		t.Error("an unterminated row must be an error")
	}
	if _, err := f.parse("1"+rowSep, fieldSep, rowSep); err == nil {
		t.Error("a row with too few fields must be an error")
	}
	_, fieldSep2, _ := f.layout()
	if fieldSep2 == fieldSep {
		t.Error("every layout must use a fresh random token")
	}
}

// TestFormatPrintsPlainVariablesTogether: ids and numbers share one field,
// a space apart, ahead of the free variables whatever f's order; an extra
// or missing space in that field is an error, never a shifted value.
func TestFormatPrintsPlainVariablesTogether(t *testing.T) {
	f := format{"pane_id", "pane_title", "pane_width", "pane_current_path", "pane_dead_status"}
	spec, fieldSep, rowSep := f.layout()
	want := "#{pane_id} #{pane_width} #{pane_dead_status}" + fieldSep + "#{pane_title}" + fieldSep + "#{pane_current_path}" + strings.TrimSuffix(rowSep, "\n")
	if spec != want {
		t.Fatalf("spec %q, want %q", spec, want)
	}
	title := "a b" + fieldSep[:4] + " 7 "
	rows, err := f.parse("%3 80 "+fieldSep+title+fieldSep+"/x y"+rowSep, fieldSep, rowSep)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0]["pane_id"] != "%3" || rows[0]["pane_width"] != "80" || rows[0]["pane_dead_status"] != "" ||
		rows[0]["pane_title"] != title || rows[0]["pane_current_path"] != "/x y" {
		t.Errorf("rows = %q", rows)
	}
	for _, plain := range []string{"%3 80", "%3 80 1 2", "%3 8 0 1"} {
		if rows, err := f.parse(plain+fieldSep+"t"+fieldSep+"/"+rowSep, fieldSep, rowSep); err == nil {
			t.Errorf("plain field %q parsed as %q, want an error", plain, rows)
		}
	}
}

func client(t *testing.T) (*Client, string) {
	sock := tmuxtest.Server(t)
	return New(Config{Binary: tmuxtest.Binary(), SocketPath: sock}), sock
}

func TestHostileNamesAndArgvArriveExactly(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "argv")
	argv := []string{"sh", "-c", `printf '%s\n' "$@" > "$OUT"; "$TB" -S "$SOCK" wait-for -S written; exec cat`, "x",
		"a b", "it's", `"q"`, "$HOME", "semi;", ";", "#{pane_id}", "#(echo no)", "line\nbreak", "ünï", "-n"}
	created, err := c.NewSession(ctx, NewSessionOptions{
		Name:       "s#{pane_id};",
		WindowName: "w#(echo no)",
		Spawn: Spawn{Argv: argv, Cwd: t.TempDir(), Env: map[string]string{
			"OUT": out, "SOCK": sock, "TB": tmuxtest.Binary(),
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, sock, "wait-for", "written")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(argv[4:], "\n") + "\n"; string(got) != want {
		t.Errorf("program saw argv\n%q\nwant\n%q", got, want)
	}
	if created.SessionName != "s#{pane_id};" {
		t.Errorf("session name %q, want it literal", created.SessionName)
	}
	windows, err := c.ListWindows(ctx, created.Session)
	if err != nil {
		t.Fatal(err)
	}
	if len(windows) != 1 || windows[0].Name != "w#(echo no)" {
		t.Errorf("windows = %+v, want one named literally", windows)
	}
}

func TestSingleArgvRunsWithoutShell(t *testing.T) {
	c, sock := client(t)
	dir := t.TempDir()
	// A program whose name has a space and a quote: a shell would split it.
	prog := filepath.Join(dir, `my "prog"`)
	script := "#!/bin/sh\necho ran > \"$(dirname \"$0\")/out\"\n" + shellWord(tmuxtest.Binary()) + " -S " + shellWord(sock) + " wait-for -S ran\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewWindow(context.Background(), "$0", NewWindowOptions{Spawn: Spawn{Argv: []string{prog}}}); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, sock, "wait-for", "ran")
	if b, err := os.ReadFile(filepath.Join(dir, "out")); err != nil || string(b) != "ran\n" {
		t.Errorf("program output %q, %v", b, err)
	}
}

func TestDeadPaneStatusAndSignal(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	tmuxtest.Run(t, sock, "set-option", "-g", "remain-on-exit", "on")
	exited, err := c.NewWindow(ctx, "$0", NewWindowOptions{Spawn: Spawn{Argv: []string{"sh", "-c", "exit 7"}}})
	if err != nil {
		t.Fatal(err)
	}
	killed, err := c.NewWindow(ctx, "$0", NewWindowOptions{Spawn: Spawn{Argv: []string{"sh", "-c", "kill -TERM $$"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Wait until both are dead: pane-died hooks would be better, but a
	// tmux wait-for from the hook is the simplest private signal.
	tmuxtest.Run(t, sock, "set-hook", "-g", "pane-died", "run-shell "+shellWord(shellWord(tmuxtest.Binary())+" -S "+shellWord(sock)+" wait-for -S died"))
	for range 2 {
		ctx, cancel := context.WithTimeout(ctx, tmuxBound)
		p, _ := c.Pane(ctx, exited.Pane)
		q, _ := c.Pane(ctx, killed.Pane)
		if p.Dead && q.Dead {
			cancel()
			break
		}
		c.WaitFor(ctx, "died")
		cancel()
	}
	p, err := c.Pane(ctx, exited.Pane)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Dead || p.ExitStatus == nil || *p.ExitStatus != 7 || p.ExitSignal != nil {
		t.Errorf("exited pane: dead=%v status=%v signal=%v, want dead with status 7", p.Dead, p.ExitStatus, p.ExitSignal)
	}
	q, err := c.Pane(ctx, killed.Pane)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Dead || q.ExitSignal == nil || *q.ExitSignal != "SIGTERM" || q.ExitStatus != nil {
		t.Errorf("killed pane: dead=%v status=%v signal=%v, want SIGTERM", q.Dead, q.ExitStatus, q.ExitSignal)
	}
}

func TestNotFoundAndServerGone(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	var nf *NotFoundError
	if _, err := c.Pane(ctx, "%99"); !errors.As(err, &nf) || nf.Kind != "pane" {
		t.Errorf("Pane(%%99) = %v, want a pane NotFoundError", err)
	}
	if _, err := c.Window(ctx, "@99"); !errors.As(err, &nf) || nf.Kind != "window" {
		t.Errorf("Window(@99) = %v", err)
	}
	if _, err := c.Session(ctx, "$99"); !errors.As(err, &nf) || nf.Kind != "session" {
		t.Errorf("Session($99) = %v", err)
	}
	if _, err := c.ListPanes(ctx, PaneScope{Window: "@99"}); !errors.As(err, &nf) {
		t.Errorf("ListPanes(@99) = %v", err)
	}
	tmuxtest.Run(t, sock, "kill-server")
	if ss, err := c.ListSessions(ctx); err != nil || len(ss) != 0 {
		t.Errorf("ListSessions with no server = %v, %v; want none, no error", ss, err)
	}
	if err := c.SendSequence(ctx, "%0", []KeyItem{{Text: "x"}}); !errors.Is(err, ErrServerGone) {
		t.Errorf("SendKeys with no server = %v, want ErrServerGone", err)
	}
}

func TestWaitForSignalTimeoutAndServerDeath(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()

	// A signal sent before anyone waits is latched for the next waiter.
	if err := c.Signal(ctx, "early"); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitFor(ctx, "early"); err != nil {
		t.Errorf("latched signal: %v", err)
	}

	tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if err := c.WaitFor(tctx, "never"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timed-out wait = %v, want DeadlineExceeded", err)
	}

	done := make(chan error, 1)
	go func() { done <- c.WaitFor(ctx, "orphan") }()
	// Let the wait-for client register before the server goes away; if it
	// has not yet, it fails to connect, which is also not a signal.
	time.Sleep(100 * time.Millisecond)
	tmuxtest.Run(t, sock, "kill-server")
	select {
	case err := <-done:
		if err == nil || !(errors.Is(err, ErrChannelAborted) || errors.Is(err, ErrServerGone)) {
			t.Errorf("wait across server death = %v, want ErrChannelAborted", err)
		}
	case <-time.After(tmuxBound):
		t.Fatal("wait-for did not end when its server died")
	}
}

func TestSelf(t *testing.T) {
	c, sock := client(t)
	t.Setenv("TMUX", sock+",123,0")
	t.Setenv("TMUX_PANE", "%0")
	if p, ok := c.Self(); !ok || p != "%0" {
		t.Errorf("Self() = %q, %v; want %%0 on the same socket", p, ok)
	}
	t.Setenv("TMUX", "/elsewhere,1,0")
	if _, ok := c.Self(); ok {
		t.Error("a pane on another server is not ours")
	}
}

func TestSpawnArgs(t *testing.T) {
	got := Spawn{Argv: []string{"a b"}, Cwd: "/x#y", Env: map[string]string{"B": "2", "A": "1"}}.args()
	want := []string{"-c", "/x##y", "-e", "A=1", "-e", "B=2", "--", "/bin/sh", "-c", `exec "$0"`, "a b"}
	if !slices.Equal(got, want) {
		t.Errorf("args = %q, want %q", got, want)
	}
}

func TestHostileKeysArriveExactly(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	keys := []string{`a;`, `;`, `\;`, `#{pane_id}`, `#(echo no)`, `$HOME`, `"q'`, "tab\there", "-l", "ünï"}
	// The program appends each line it reads, byte for byte, to a file
	// and signals when it reads END.
	out := filepath.Join(t.TempDir(), "lines")
	created, err := c.NewWindow(ctx, "$0", NewWindowOptions{Spawn: Spawn{
		Argv: []string{"sh", "-c", `stty -echo; while IFS= read -r l; do [ "$l" = END ] && exec "$TB" -S "$SOCK" wait-for -S got; printf '%s\n' "$l" >> "$OUT"; done`},
		Env:  map[string]string{"SOCK": sock, "OUT": out, "TB": tmuxtest.Binary()},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range append(keys, "END") {
		if err := c.SendSequence(ctx, created.Pane, []KeyItem{{Text: k}, {Key: "Enter"}}); err != nil {
			t.Fatalf("send %q: %v", k, err)
		}
	}
	tmuxtest.Run(t, sock, "wait-for", "got")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(keys, "\n") + "\n"; string(got) != want {
		t.Errorf("the program read\n%q\nwant\n%q", got, want)
	}
	if err := c.SendSequence(ctx, "%0", []KeyItem{{Text: "nul\x00byte"}}); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("a NUL byte must be refused clearly, got %v", err)
	}
}

// TestStoredSessionName checks storedSessionName against the names tmux
// itself stores, on the tmux under test (3.7 refuses such names).
func TestStoredSessionName(t *testing.T) {
	c, sock := client(t)
	ctx := context.Background()
	for _, name := range []string{"build\\x", "tab\there", "a:b.c", "nl\nx", "bell\a", "ünï", "del\x7f", "bad\xffutf"} {
		if _, err := c.NewSession(ctx, NewSessionOptions{Name: name}); err != nil {
			if strings.Contains(err.Error(), "invalid session name") {
				continue // tmux 3.7 and later
			}
			t.Fatalf("new-session %q: %v", name, err)
		}
		found, err := c.sessionByName(ctx, name)
		if err != nil {
			t.Errorf("session %q not found by its name: %v (tmux lists %q)", name, err, tmuxtest.Run(t, sock, "list-sessions", "-F", "#{session_name}"))
			continue
		}
		tmuxtest.Run(t, sock, "kill-session", "-t", string(found.ID))
	}
}

// TestCommandErrorHidesSecretsAndBounds checks that an error repeating a
// command shows no environment value and stays small.
func TestCommandErrorHidesSecretsAndBounds(t *testing.T) {
	c, _ := client(t)
	ctx := context.Background()
	_, err := c.NewSession(ctx, NewSessionOptions{Name: "main", Spawn: Spawn{Env: map[string]string{"API_TOKEN": "hunter2"}}})
	if err == nil {
		t.Fatal("a second session named main was made")
	}
	if msg := err.Error(); strings.Contains(msg, "hunter2") || !strings.Contains(msg, "API_TOKEN=…") {
		t.Errorf("error %q shows the secret or hides the name", msg)
	}
	huge := strings.Repeat("ü", 1<<20)
	err = c.SendSequence(ctx, "%0", []KeyItem{{Key: huge}}) // a key is never split
	if err == nil {
		t.Skip("tmux took a 2 MiB key")
	}
	if n := len(err.Error()); n > 2048 {
		t.Errorf("error for a 2 MiB argument is %d bytes long", n)
	}
	if !utf8.ValidString(err.Error()) {
		t.Error("a cut error is not valid UTF-8")
	}
}

// shellWord quotes s as one sh word. The tests' programs run the test's
// tmux by its path: an older tmux on PATH cannot talk to a 3.6a or later
// server.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestPlainVariablesHoldNoSpace reads every plain variable, for every
// pane, in the states that change them (a pane in copy mode scrolled up, a
// dead pane, a zoomed split window, a paste buffer), from the tmux under
// test: a space in one would make layout's plain field unreadable.
func TestPlainVariablesHoldNoSpace(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "set-option", "-g", "remain-on-exit", "on")
	tmuxtest.Run(t, sock, "new-window", "-t", "main:", "sh", "-c", "seq 100; exit 3")
	tmuxtest.Run(t, sock, "split-window", "-t", "main:0", "sh", "-c", "seq 300; exec cat")
	tmuxtest.Run(t, sock, "resize-pane", "-Z", "-t", "main:0")
	tmuxtest.Run(t, sock, "set-buffer", "-b", "b", "x y")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(tmuxtest.Run(t, sock, "list-panes", "-a", "-F", "#{pane_dead}"), "1") {
		if time.Now().After(deadline) {
			t.Fatal("the pane running exit 3 never died")
		}
		time.Sleep(20 * time.Millisecond)
	}
	tmuxtest.Run(t, sock, "copy-mode", "-t", "main:0.1")
	tmuxtest.Run(t, sock, "send-keys", "-X", "-t", "main:0.1", "-N", "5", "scroll-up")
	var names []string
	for name := range plainVariables {
		names = append(names, name)
	}
	slices.Sort(names)
	// Buffers are read for their own variables only: tmux 3.2a's server
	// crashes printing pane variables for a buffer.
	var paneSpec, bufferSpec strings.Builder
	for _, name := range names {
		spec := &paneSpec
		if strings.HasPrefix(name, "buffer_") {
			spec = &bufferSpec
		}
		spec.WriteString(name + "=#{" + name + "}\t")
	}
	lists := tmuxtest.Run(t, sock, "list-panes", "-a", "-F", paneSpec.String()) +
		tmuxtest.Run(t, sock, "list-buffers", "-F", bufferSpec.String())
	if !strings.Contains(lists, "pane_mode=copy-mode") || !strings.Contains(lists, "pane_dead=1") {
		t.Fatalf("the panes are not in the states this test reads:\n%s", lists)
	}
	for _, row := range strings.Split(strings.TrimSpace(lists), "\n") {
		for _, v := range strings.Split(strings.TrimSuffix(row, "\t"), "\t") {
			if strings.ContainsAny(v, " \n") {
				t.Errorf("%q holds a space", v)
			}
		}
	}
}
