package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// The benchmarks drive the built binary over stdio, as a client would,
// against a private tmux, and report medians with b.ReportMetric. They
// assert only that calls succeed: speed is printed, never asserted.
// scripts/bench.sh runs them.

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// bareControlClient attaches a plain `tmux -C` client to session and
// reports when each %output line containing a marker arrives.
type bareControlClient struct {
	mu   sync.Mutex
	seen map[string]chan time.Time
}

func attachBare(b testing.TB, sock, session string) *bareControlClient {
	cmd := exec.Command(tmuxtest.Binary(), "-u", "-S", sock, "-C", "attach", "-t", session)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	bc := &bareControlClient{seen: map[string]chan time.Time{}}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		// The payloads of the last lines, joined: a loaded machine's
		// tmux can split a marker's echo over two %output lines.
		var recent string
		for sc.Scan() {
			now := time.Now()
			line := sc.Text()
			if !strings.HasPrefix(line, "%output") && !strings.HasPrefix(line, "%extended-output") {
				continue
			}
			f := strings.SplitN(line, " ", 3)
			if len(f) < 3 {
				continue
			}
			recent += f[2]
			if len(recent) > 512 {
				recent = recent[len(recent)-256:]
			}
			bc.mu.Lock()
			for m, ch := range bc.seen {
				if strings.Contains(recent, m) {
					ch <- now
					delete(bc.seen, m)
				}
			}
			bc.mu.Unlock()
		}
	}()
	return bc
}

func (bc *bareControlClient) expect(marker string) <-chan time.Time {
	ch := make(chan time.Time, 1)
	bc.mu.Lock()
	bc.seen[marker] = ch
	bc.mu.Unlock()
	return ch
}

// await returns when the bare client saw its marker; it fails the
// benchmark after replyBound rather than hang.
func (bc *bareControlClient) await(b testing.TB, seen <-chan time.Time) time.Time {
	select {
	case t := <-seen:
		return t
	case <-time.After(replyBound):
		b.Fatalf("the bare control client did not see the marker in %v", replyBound)
		return time.Time{}
	}
}

// BenchmarkWaitWakeup measures how long after a bare control-mode client
// sees a pane's %output the wait_for_text reply for the same text arrives,
// through the stream host and through the per-instance `cat` relay.
func BenchmarkWaitWakeup(b *testing.B) {
	for _, mode := range benchModes {
		b.Run(mode.name, func(b *testing.B) { benchWaitWakeup(b, mode.env) })
	}
}

func benchWaitWakeup(b *testing.B, env []string) {
	sock := tmuxtest.Server(b)
	tmuxtest.Run(b, sock, "new-window", "-t", "main:", "cat")
	c := launchMCPEnv(b, sock, env...)
	// Each wait starts from the cursor of the answer before, so a wait
	// that subscribes after its marker is printed (a loaded machine,
	// slower than the settle below) still matches it; such a sample is
	// only slow.
	cursor := c.mustTool(b, "capture_since", map[string]any{"paneId": "%1"})["cursor"].(string)
	bare := attachBare(b, sock, "main")
	var overhead []time.Duration
	for i := 0; b.Loop(); i++ {
		marker := "mark" + strconv.Itoa(i) + "x"
		reply := c.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
			"paneId": "%1", "patterns": []string{marker}, "cursor": cursor, "timeoutMs": 10000}})
		// A short settle keeps the send-keys after the subscription
		// without measuring it.
		time.Sleep(20 * time.Millisecond)
		seen := bare.expect(marker)
		// Natively: a spawned tmux client would be exiting on the
		// other core just as the output is read, in the window measured.
		tmuxtest.RunNative(b, sock, "send-keys", "-t", "%1", "-l", marker+"\n")
		t0 := bare.await(b, seen)
		out := c.mustAnswer(b, "wait_for_text", reply)
		if out["outcome"] != "matched" {
			b.Fatalf("outcome %v", out["outcome"])
		}
		cursor = out["cursor"].(string)
		t1, _ := c.Arrived(reply)
		overhead = append(overhead, t1.Sub(t0))
	}
	b.ReportMetric(ms(median(overhead)), "median-ms-after-bare-client")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBareTmux measures a bare spawned tmux client round trip (a Go
// exec of `tmux list-panes -a`): the floor under every tool call, since
// every tmux command is such a client.
func BenchmarkBareTmux(b *testing.B) {
	sock := tmuxtest.Server(b)
	timed(b, func() time.Duration {
		t0 := time.Now()
		if err := exec.Command(tmuxtest.Binary(), "-S", sock, "list-panes", "-a").Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	})
}

// BenchmarkStartup measures process start to the initialize reply.
func BenchmarkStartup(b *testing.B) {
	sock := tmuxtest.Server(b)
	if _, err := buildBinary(); err != nil {
		b.Fatal(err)
	}
	var d []time.Duration
	for b.Loop() {
		t0 := time.Now()
		c := launchMCP(b, sock, "")
		d = append(d, time.Since(t0))
		c.CloseInput()
		c.AwaitExit(replyBound)
	}
	b.ReportMetric(ms(median(d)), "median-ms-to-initialize")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkStartupPhases measures, from process start, the initialize
// reply (what BenchmarkStartup measures), the tools/list reply sent right
// after it (the tools are added while initialize is answered) and the first
// tool call's reply; and, for the floor, a trivial Go program that answers
// one line with one line.
func BenchmarkStartupPhases(b *testing.B) {
	sock := tmuxtest.Server(b)
	if _, err := buildBinary(); err != nil {
		b.Fatal(err)
	}
	floor, err := buildFloor()
	if err != nil {
		b.Fatal(err)
	}
	var initialized, listed, called, trivial []time.Duration
	for b.Loop() {
		t0 := time.Now()
		c := launchMCP(b, sock, "")
		initialized = append(initialized, time.Since(t0))
		if _, err := c.Call("tools/list", map[string]any{}, replyBound); err != nil {
			b.Fatal(err)
		}
		listed = append(listed, time.Since(t0))
		c.mustTool(b, "list_panes", map[string]any{})
		called = append(called, time.Since(t0))
		c.CloseInput()
		c.AwaitExit(replyBound)

		cmd := exec.Command(floor)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		t0 = time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintln(in, "{}")
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		trivial = append(trivial, time.Since(t0))
		in.Close()
		cmd.Wait()
	}
	b.ReportMetric(ms(median(initialized)), "median-ms-to-initialize")
	b.ReportMetric(ms(median(listed)), "median-ms-to-tools/list")
	b.ReportMetric(ms(median(called)), "median-ms-to-first-call")
	b.ReportMetric(ms(median(trivial)), "median-ms-trivial-go-process")
	b.ReportMetric(0, "ns/op")
}

// buildFloor builds a Go program that reads one line and answers one:
// the floor under any Go server's start.
var buildFloor = sync.OnceValues(func() (string, error) {
	dir, err := runTempDir("tmux-mcp-test-floor-")
	if err != nil {
		return "", err
	}
	src := "package main\n\nimport (\n\t\"bufio\"\n\t\"os\"\n)\n\nfunc main() {\n\tr := bufio.NewReader(os.Stdin)\n\tr.ReadString('\\n')\n\tos.Stdout.WriteString(\"{}\\n\")\n\tr.ReadString('\\n')\n}\n"
	for name, text := range map[string]string{"go.mod": "module floor\n", "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(dir, "floor")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v: %s", err, out)
	}
	return bin, nil
})

// BenchmarkConcurrentWaits starts 64 waits on 64 panes, then makes every
// pane print, and reports how long until all 64 answered.
func BenchmarkConcurrentWaits(b *testing.B) {
	sock := tmuxtest.Server(b)
	const n = 64
	for i := 1; i < n; i++ {
		tmuxtest.Run(b, sock, "new-window", "-d", "-t", "main:", "cat")
	}
	c := launchMCP(b, sock, "")
	panes := c.mustTool(b, "list_panes", map[string]any{})["panes"].([]any)
	var all []time.Duration
	for i := 0; b.Loop(); i++ {
		var replies []string
		for _, p := range panes {
			id := p.(map[string]any)["paneId"].(string)
			replies = append(replies, c.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
				"paneId": id, "patterns": []string{"go" + strconv.Itoa(i) + "!"}, "timeoutMs": 30000}}))
		}
		time.Sleep(200 * time.Millisecond) // let all 64 subscribe
		t0 := time.Now()
		for _, p := range panes {
			tmuxtest.Run(b, sock, "send-keys", "-t", p.(map[string]any)["paneId"].(string), "-l", "go"+strconv.Itoa(i)+"!\n")
		}
		for _, r := range replies {
			if out := c.mustAnswer(b, "wait_for_text", r); out["outcome"] != "matched" {
				b.Fatalf("outcome %v", out["outcome"])
			}
		}
		all = append(all, time.Since(t0))
	}
	b.ReportMetric(ms(median(all)), "median-ms-all-64-answered")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkStream100MiB pushes 100 MiB through a watched pane, calling
// list_panes throughout, then checks the accounting of one capture_since
// and reports the server's peak RSS and the slowest list_panes.
func BenchmarkStream100MiB(b *testing.B) {
	for b.Loop() {
		sock := tmuxtest.Server(b)
		const total = 100 << 20 // 64-byte lines: 63 characters and a newline
		script := `"$TB" -S "$SOCK" wait-for go; yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde | head -c ` +
			strconv.Itoa(total) + `; "$TB" -S "$SOCK" wait-for -S done; exec cat`
		tmuxtest.Run(b, sock, "new-window", "-d", "-e", "SOCK="+sock, "-e", "TB="+tmuxtest.Binary(), "-t", "main:", "sh", "-c", script)
		c := launchMCP(b, sock, "")
		seed := c.mustTool(b, "capture_since", map[string]any{"paneId": "%1"})
		cursor := seed["cursor"].(string)
		start, _ := strconv.ParseInt(cursor[strings.LastIndexByte(cursor, '.')+1:], 10, 64)

		done := make(chan struct{})
		var worst time.Duration
		go func() {
			defer close(done)
			tmuxtest.Run(b, sock, "wait-for", "-S", "go")
			tmuxtest.Run(b, sock, "wait-for", "done")
		}()
	loop:
		for {
			select {
			case <-done:
				break loop
			default:
			}
			t0 := time.Now()
			c.mustTool(b, "list_panes", map[string]any{})
			worst = max(worst, time.Since(t0))
			time.Sleep(20 * time.Millisecond)
		}
		// Read until the stream holds everything the program printed.
		var got map[string]any
		var end int64
		for end-start < total {
			got = c.mustTool(b, "capture_since", map[string]any{"paneId": "%1", "cursor": cursor, "waitMs": 2000})
			nc := got["cursor"].(string)
			end, _ = strconv.ParseInt(nc[strings.LastIndexByte(nc, '.')+1:], 10, 64)
			missed := int64(got["missedBytes"].(float64))
			omitted := int64(got["omittedBytes"].(float64))
			text := int64(len(got["text"].(string)))
			old, _ := strconv.ParseInt(cursor[strings.LastIndexByte(cursor, '.')+1:], 10, 64)
			if end-old != missed+omitted+text {
				b.Fatalf("accounting: %d advanced != missed %d + omitted %d + text %d", end-old, missed, omitted, text)
			}
			cursor = nc
		}
		if end-start != total {
			b.Fatalf("stream advanced %d, want %d", end-start, total)
		}
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.Cmd.Process.Pid))
		var hwm string
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "VmHWM:") {
				hwm = strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:"))
			}
		}
		kb, _ := strconv.Atoi(strings.TrimSuffix(hwm, " kB"))
		b.ReportMetric(float64(kb)/1024, "peak-RSS-MiB")
		b.ReportMetric(ms(worst), "worst-list_panes-ms-while-streaming")
		b.ReportMetric(0, "ns/op")
	}
}

// BenchmarkRunShellCommandTrue measures run_shell_command "true" in a
// bash pane: typing, running and the framed answer.
func BenchmarkRunShellCommandTrue(b *testing.B) {
	sock := tmuxtest.Server(b)
	tmuxtest.Run(b, sock, "new-window", "-t", "main:", "bash", "--norc", "--noprofile", "-i")
	c := launchMCP(b, sock, "")
	c.mustTool(b, "run_shell_command", map[string]any{"paneId": "%1", "command": "true"}) // warm up the stream
	timed(b, func() time.Duration {
		out, took := timedTool(b, c, "run_shell_command", map[string]any{"paneId": "%1", "command": "true"})
		if out["outcome"] != "completed" {
			b.Fatalf("outcome %v", out["outcome"])
		}
		return took
	})
}

// BenchmarkRunProgramTrue measures run_program of /bin/true end to end:
// a new window, the exit, the output and closing the pane.
func BenchmarkRunProgramTrue(b *testing.B) {
	sock := tmuxtest.Server(b)
	c := launchMCP(b, sock, "")
	timed(b, func() time.Duration {
		out, took := timedTool(b, c, "run_program", map[string]any{"argv": []string{"/bin/true"}})
		if out["outcome"] != "completed" {
			b.Fatalf("outcome %v", out["outcome"])
		}
		return took
	})
}

// BenchmarkWaitForExitNotice measures the time from a program's last
// moment (it writes the clock, then exits) to the wait_for_exit reply.
func BenchmarkWaitForExitNotice(b *testing.B) {
	sock := tmuxtest.Server(b)
	c := launchMCP(b, sock, "")
	stamp := filepath.Join(b.TempDir(), "stamp")
	var lag []time.Duration
	for i := 0; b.Loop(); i++ {
		script := `"$TB" -S "$SOCK" wait-for go` + strconv.Itoa(i) + `; date +%s%N > "$STAMP"; exit 3`
		out := tmuxtest.Run(b, sock, "new-window", "-d", "-P", "-F", "#{pane_id}", "-e", "SOCK="+sock, "-e", "TB="+tmuxtest.Binary(),
			"-e", "STAMP="+stamp, "-t", "main:", "sh", "-c", script)
		pane := strings.TrimSpace(out)
		reply := c.start("tools/call", map[string]any{"name": "wait_for_exit", "arguments": map[string]any{"paneId": pane, "timeoutMs": 10000}})
		awaitHold(b, sock, pane)
		tmuxtest.Run(b, sock, "wait-for", "-S", "go"+strconv.Itoa(i))
		if _, err := c.Wait(reply, replyBound); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if got := c.mustAnswer(b, "wait_for_exit", reply); got["outcome"] != "completed" || got["exitStatus"] != float64(3) {
			b.Fatalf("wait_for_exit = %v", got)
		}
		raw, err := os.ReadFile(stamp)
		if err != nil {
			b.Fatal(err)
		}
		ns, _ := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
		lag = append(lag, t1.Sub(time.Unix(0, ns)))
	}
	b.ReportMetric(ms(median(lag)), "median-ms-after-exit")
	b.ReportMetric(0, "ns/op")
}

// awaitHold returns once tmux-mcp holds pane (its exit tracker has set the
// pane's hold option), so the program cannot exit before the wait sees it.
func awaitHold(b *testing.B, sock, pane string) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		out, _ := exec.Command(tmuxtest.Binary(), "-S", sock, "show-options", "-pqv", "-t", pane, "@tmux-mcp-hold").Output()
		if strings.TrimSpace(string(out)) != "" {
			return
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatalf("pane %s was never held", pane)
}
