package shellframe

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestShellOf(t *testing.T) {
	for cmd, want := range map[string]Kind{
		"bash": POSIX, "-bash": POSIX, "zsh": Zsh, "dash": POSIX, "sh": POSIX,
		"ksh93": POSIX, "fish": Fish, "/usr/bin/fish": Fish, "vim": NotShell, "python3": NotShell, "": NotShell,
	} {
		if got := Of(cmd); got != want {
			t.Errorf("Of(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestFrameRunsInEachShell sources a frame's runner non-interactively in
// every installed shell and checks the markers, the output between them,
// the status, and that the typed line holds neither.
func TestFrameRunsInEachShell(t *testing.T) {
	command := "echo \"it's\" $((6*7)); printf 'x\\ty\\n'\ncd /; (exit 9)"
	for _, sh := range []struct {
		bin  string
		kind Kind
	}{{"sh", POSIX}, {"bash", POSIX}, {"dash", POSIX}, {"zsh", Zsh}, {"ksh", POSIX}, {"fish", Fish}} {
		t.Run(sh.bin, func(t *testing.T) {
			if _, err := exec.LookPath(sh.bin); err != nil {
				t.Skipf("%s is not installed", sh.bin)
			}
			dir := t.TempDir()
			command := command
			if sh.kind == Fish {
				command = "echo \"it's\" (math 6 \\* 7); printf 'x\\ty\\n'\ncd /; fish -c 'exit 9'"
			}
			f, err := Write(dir, "n0nce", command, Label(command), sh.kind)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(f.Typed, "7777;") || strings.Contains(f.Typed, "tmux-mcp;") || strings.Contains(f.Typed, "it's") || strings.Contains(f.Typed, "\n") {
				t.Errorf("typed line %q holds a marker, a quote of the command or a newline", f.Typed)
			}
			line := strings.TrimSpace(f.Typed) + "\necho after $PWD\n"
			cmd := exec.Command(sh.bin)
			if sh.kind == Fish {
				cmd = exec.Command(sh.bin, "--no-config")
			}
			cmd.Stdin = strings.NewReader(line)
			cmd.Env = append(os.Environ(), "HOME="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			want := "\x1b]7777;tmux-mcp;n0nce;start\a" + "it's 42\nx\ty\n" + "\x1b]7777;tmux-mcp;n0nce;end;9\a" + "after /\n"
			if string(out) != want {
				t.Errorf("output\n%q\nwant\n%q", out, want)
			}
		})
	}
}

// TestFrameSurvivesShellErrors: errors that make an interactive shell
// abandon the line it read must not swallow the end marker.
func TestFrameSurvivesShellErrors(t *testing.T) {
	for _, sh := range []struct {
		bin  string
		kind Kind
	}{{"dash", POSIX}, {"bash", POSIX}, {"ksh", POSIX}, {"zsh", Zsh}} {
		if _, err := exec.LookPath(sh.bin); err != nil {
			t.Run(sh.bin, func(t *testing.T) { t.Skipf("%s is not installed", sh.bin) })
			continue
		}
		for _, command := range []string{"echo ${nosuch:?oops}", "if then fi", "shift 5"} {
			dir := t.TempDir()
			f, err := Write(dir, "n0nce", command, Label(command), sh.kind)
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"-i"}
			if sh.bin == "zsh" {
				args = []string{"-f", "-i"}
			}
			cmd := exec.Command(sh.bin, args...)
			cmd.Stdin = strings.NewReader(strings.TrimSpace(f.Typed) + "\necho after\n")
			cmd.Env = append(os.Environ(), "HOME="+dir)
			out, _ := cmd.CombinedOutput()
			if !strings.Contains(string(out), "\x1b]7777;tmux-mcp;n0nce;end;") || !strings.Contains(string(out), "after") {
				t.Errorf("%s, %q: no end marker, or the shell gave up:\n%q", sh.bin, command, out)
			}
		}
	}
}

// TestCommandLabel: the typed line's label is the first non-blank line,
// cut at 60 characters, with nothing a shell would act on.
func TestCommandLabel(t *testing.T) {
	long := strings.Repeat("x", 70)
	for in, want := range map[string]string{
		"make test":                      "make test",
		"\n\n  cd /src && make\nrm -f x": "cd /src && make",
		"echo 'hi' !! \\n":               "echo \"hi\" .. /n",
		"a\tb\x1b[31mc\x00d":             "a b [31mc d",
		"bad \xff\xfe utf8":              "bad utf8",
		long:                             strings.Repeat("x", 60) + "...",
		"   ":                            "",
		"a\u2028b\u202ec":                "a b c",
	} {
		got := Label(in)
		if got != want {
			t.Errorf("Label(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsAny(got, "\n\r'!\\\x00\x1b") {
			t.Errorf("Label(%q) = %q holds a character a shell would act on", in, got)
		}
	}
}

// TestFrameReportsASignalledProgram: a program that dies of a signal ends
// the frame with the status the shell gives the sourced file: 128+n, and
// in ksh93 n alone (its `.` keeps the low 8 bits of 256+n). Interrupts
// need job control, hence a terminal: the goldens
// run_shell_command-interrupt, -suspend and wait_for_command-interrupted
// cover them.
func TestFrameReportsASignalledProgram(t *testing.T) {
	for _, sh := range []struct {
		bin  string
		kind Kind
	}{{"dash", POSIX}, {"bash", POSIX}, {"zsh", Zsh}, {"ksh", POSIX}, {"fish", Fish}} {
		if _, err := exec.LookPath(sh.bin); err != nil {
			continue
		}
		dir := t.TempDir()
		f, err := Write(dir, "n0nce", "sh -c 'kill -TERM $$'", "", sh.kind)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{}
		if sh.kind == Fish {
			args = []string{"--no-config"}
		}
		cmd := exec.Command(sh.bin, args...)
		cmd.Stdin = strings.NewReader(strings.TrimSpace(f.Typed) + "\n")
		cmd.Env = append(os.Environ(), "HOME="+dir)
		out, _ := cmd.CombinedOutput()
		want := "\x1b]7777;tmux-mcp;n0nce;end;143\a"
		if sh.bin == "ksh" {
			want = "\x1b]7777;tmux-mcp;n0nce;end;15\a"
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%s: no end marker %q:\n%q", sh.bin, want, out)
		}
	}
}
