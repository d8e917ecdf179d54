package e2e

// What the process tests look at from outside: tmux's state on a private
// socket (panes, options, hooks, clients, window sizes), processes by
// pid, and temporary directories; and small polling helpers with bounds.

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

func environWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			env = append(env, kv)
		}
	}
	return env
}

// privateTmpdir makes a TMPDIR for one tmux-mcp: short (FIFO and socket
// paths) and removed at cleanup.
func privateTmpdir(t testing.TB) string {
	dir, err := os.MkdirTemp("", "tmcp-")
	if err != nil {
		t.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir) // /proc shows fds by their real path
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// tmpdirEntries lists the entries of ours (tmux-mcp-*) in tmpdir.
func tmpdirEntries(tmpdir string) []string {
	entries, _ := os.ReadDir(tmpdir)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "tmux-mcp") {
			out = append(out, e.Name())
		}
	}
	return out
}

// ---- tmux queries ---------------------------------------------------------

// tmuxQuery runs tmux on sock and returns its output without the final
// newline. Unlike tmuxtest.Run it never fails the test, so pollers and
// goroutines can use it.
func tmuxQuery(sock string, args ...string) (string, error) {
	cmd := exec.Command(tmuxtest.Binary(), append([]string{"-u", "-S", sock, "-f", "/dev/null"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return strings.TrimRight(string(out), "\n"), nil
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// newPane makes a detached window in session main running argv and returns
// its pane id.
func newPane(t *testing.T, sock string, argv ...string) string {
	t.Helper()
	out := tmuxtest.Run(t, sock, append([]string{"new-window", "-d", "-P", "-F", "#{pane_id}", "-t", "main:"}, argv...)...)
	return strings.TrimSpace(out)
}

func serverPID(t testing.TB, sock string) int {
	t.Helper()
	out := tmuxtest.Run(t, sock, "display", "-p", "#{pid}")
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		t.Fatalf("server pid %q: %v", out, err)
	}
	return pid
}

func windowSize(t *testing.T, sock, target string) string {
	t.Helper()
	return strings.TrimSpace(tmuxtest.Run(t, sock, "display", "-p", "-t", target, "#{window_width}x#{window_height}"))
}

// windowSizes maps each window id to its size, WxH.
func windowSizes(sock string) (map[string]string, error) {
	out, err := tmuxQuery(sock, "list-windows", "-a", "-F", "#{window_id} #{window_width}x#{window_height}")
	if err != nil {
		return nil, err
	}
	sizes := map[string]string{}
	for _, l := range lines(out) {
		id, size, _ := strings.Cut(l, " ")
		sizes[id] = size
	}
	return sizes, nil
}

type paneInfo struct {
	pipe, dead bool
	command    string
	pid        int
}

// listPanes describes every pane of the server, by id.
func listPanes(sock string) (map[string]paneInfo, error) {
	out, err := tmuxQuery(sock, "list-panes", "-a", "-F", "#{pane_id}\t#{pane_pipe}\t#{pane_dead}\t#{pane_current_command}\t#{pane_pid}")
	if err != nil {
		return nil, err
	}
	panes := map[string]paneInfo{}
	for _, l := range lines(out) {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("list-panes line %q", l)
		}
		pid, _ := strconv.Atoi(f[4])
		panes[f[0]] = paneInfo{pipe: f[1] == "1", dead: f[2] == "1", command: f[3], pid: pid}
	}
	return panes, nil
}

// paneOptions returns the options set at pane level on pane (inherited
// ones not included), name to value.
func paneOptions(sock, pane string) (map[string]string, error) {
	out, err := tmuxQuery(sock, "show-options", "-p", "-t", pane)
	if err != nil {
		return nil, err
	}
	opts := map[string]string{}
	for _, l := range lines(out) {
		name, value, _ := strings.Cut(l, " ")
		opts[name] = strings.Trim(value, `"'`)
	}
	return opts, nil
}

// globalHooks lists the global hooks. `show-hooks -g` alone lists only
// session hooks: pane-died and the other pane and window hooks are global
// window options, which `show-hooks -gw` lists.
func globalHooks(sock string) (string, error) {
	session, err := tmuxQuery(sock, "show-hooks", "-g")
	if err != nil {
		return "", err
	}
	window, err := tmuxQuery(sock, "show-hooks", "-g", "-w")
	if err != nil {
		return "", err
	}
	return session + "\n" + window, nil
}

// ourHooks returns the global hook entries that mention tmux-mcp.
func ourHooks(sock string) ([]string, error) {
	out, err := globalHooks(sock)
	if err != nil {
		return nil, err
	}
	var hooks []string
	for _, l := range lines(out) {
		if strings.Contains(l, "tmux-mcp") {
			hooks = append(hooks, l)
		}
	}
	return hooks, nil
}

type tmuxClient struct {
	pid           int
	name, session string
}

func listClients(sock string) ([]tmuxClient, error) {
	out, err := tmuxQuery(sock, "list-clients", "-F", "#{client_pid}\t#{client_name}\t#{session_name}")
	if err != nil {
		return nil, err
	}
	var cs []tmuxClient
	for _, l := range lines(out) {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("list-clients line %q", l)
		}
		pid, _ := strconv.Atoi(f[0])
		cs = append(cs, tmuxClient{pid: pid, name: f[1], session: f[2]})
	}
	return cs, nil
}

// ---- processes (/proc) -----------------------------------------------------

// A process as /proc shows it; start (its start time) tells it from a
// later process that reuses the pid.
type process struct {
	pid, ppid int
	start     string
	zombie    bool
	argv      []string
}

// processes lists the live processes (nil where there is no /proc).
func processes() map[int]process {
	entries, _ := os.ReadDir("/proc")
	ps := map[int]process{}
	for _, e := range entries {
		if p, ok := readProcess(e.Name()); ok && !p.zombie {
			ps[p.pid] = p
		}
	}
	return ps
}

func readProcess(pidText string) (process, bool) {
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		return process{}, false
	}
	stat, err := os.ReadFile("/proc/" + pidText + "/stat")
	if err != nil {
		return process{}, false
	}
	// The command name in parentheses may hold spaces: fields follow the last ')'.
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return process{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	cmdline, _ := os.ReadFile("/proc/" + pidText + "/cmdline")
	argv := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	return process{pid: pid, ppid: ppid, start: f[19], zombie: f[0] == "Z", argv: argv}, true
}

func isDescendant(ps map[int]process, pid, root int) bool {
	for p, ok := ps[pid]; ok && p.ppid > 1; p, ok = ps[p.ppid] {
		if p.ppid == root {
			return true
		}
	}
	return false
}

func descendants(ps map[int]process, root int) []process {
	var out []process
	for _, p := range ps {
		if isDescendant(ps, p.pid, root) {
			out = append(out, p)
		}
	}
	return out
}

// stillAlive returns those of ps that still run (same pid, same start).
func stillAlive(ps []process) []process {
	var out []process
	for _, p := range ps {
		if now, ok := readProcess(strconv.Itoa(p.pid)); ok && !now.zombie && now.start == p.start {
			out = append(out, p)
		}
	}
	return out
}

func alive(pid int) bool {
	if runtime.GOOS == "linux" {
		p, ok := readProcess(strconv.Itoa(pid))
		return ok && !p.zombie
	}
	return syscall.Kill(pid, 0) == nil
}

// describeProcess says what pid is doing and what runs under it, for a
// failure message.
func describeProcess(pid int) string {
	if runtime.GOOS != "linux" {
		return ""
	}
	stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", pid))
	var children []string
	for _, p := range descendants(processes(), pid) {
		children = append(children, fmt.Sprintf("%d %q", p.pid, p.argv))
	}
	return fmt.Sprintf("stat %q, wchan %q, descendants %v", strings.TrimSpace(string(stat)), wchan, children)
}

// inPane reports whether pid is a pane's program or runs under one.
func inPane(ps map[int]process, panes map[string]paneInfo, pid int) bool {
	for _, p := range panes {
		if p.pid == pid || isDescendant(ps, pid, p.pid) {
			return true
		}
	}
	return false
}

func isWaitFor(p process) bool {
	return len(p.argv) > 0 && strings.HasPrefix(filepath.Base(p.argv[0]), "tmux") && slices.Contains(p.argv, "wait-for")
}

// fdsInto returns what pid's open files inside dir are.
func fdsInto(pid int, dir string) []string {
	fdDir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, _ := os.ReadDir(fdDir)
	var out []string
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join(fdDir, e.Name()))
		if err == nil && (target == dir || strings.HasPrefix(target, dir+"/")) {
			out = append(out, target)
		}
	}
	return out
}

// takenPipes counts the panes' pipes process pid (a stream host) reads
// itself, taken from their relays: its unix sockets that have no path
// (a socket pair's end; what the host accepts bears its socket's path).
func takenPipes(pid int) int {
	named := map[string]bool{}
	table, _ := os.ReadFile("/proc/net/unix")
	for _, l := range lines(string(table)) {
		if f := strings.Fields(l); len(f) >= 7 && f[0] != "Num" {
			named[f[6]] = len(f) > 7
		}
	}
	fdDir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, _ := os.ReadDir(fdDir)
	n := 0
	for _, e := range entries {
		target, _ := os.Readlink(filepath.Join(fdDir, e.Name()))
		inode, ok := strings.CutPrefix(target, "socket:[")
		if hasPath, known := named[strings.TrimSuffix(inode, "]")]; ok && known && !hasPath {
			n++
		}
	}
	return n
}

func isFIFO(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&fs.ModeNamedPipe != 0
}

// boolErr is nil when ok, else the error that format says.
func boolErr(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// poll calls cond until it is true or bound has passed, and reports
// whether it became true.
func poll(bound time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// skipIfShort skips the slow leftover tests (about a minute together) under -short.
func skipIfShort(t *testing.T) {
	if testing.Short() {
		t.Skip("leftover tests are slow; run without -short")
	}
}
