package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// Benchmarks of shared pane streams (issue 20; since issue 32 held by
// the stream host): a pane's stream shared by several instances. Numbers are printed, never asserted; the accounting is exact
// and is checked.

// peakRSSMiB is a process's peak resident set (VmHWM), in MiB.
func peakRSSMiB(pid int) float64 {
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}

func cursorOffset(c string) int64 {
	n, _ := strconv.ParseInt(c[strings.LastIndexByte(c, '.')+1:], 10, 64)
	return n
}

// BenchmarkTap100MiB3Readers pushes 100 MiB through one watched pane that
// three instances read at once with capture_since, and reports the stream
// host's peak RSS; each reader's returned + omitted + missed must add up to the
// whole stream.
func BenchmarkTap100MiB3Readers(b *testing.B) {
	for b.Loop() {
		sock := tmuxtest.Server(b)
		const total = 100 << 20 // 64-byte lines: 63 characters and a newline
		script := `"$TB" -S "$SOCK" wait-for go; yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde | head -c ` +
			strconv.Itoa(total) + `; "$TB" -S "$SOCK" wait-for -S done; exec cat`
		tmuxtest.Run(b, sock, "new-window", "-d", "-e", "SOCK="+sock, "-e", "TB="+tmuxtest.Binary(), "-t", "main:", "sh", "-c", script)
		var readers []*mcpServer
		var cursors []string
		for range 3 {
			c := launchMCP(b, sock, "")
			readers = append(readers, c)
			seed := c.mustTool(b, "capture_since", map[string]any{"paneId": "%1"})
			cursors = append(cursors, seed["cursor"].(string))
		}
		mark := strings.TrimSpace(tmuxtest.Run(b, sock, "display", "-p", "-t", "%1", "#{@tmux-mcp-pipe}"))
		host, _ := strconv.Atoi(mark[strings.LastIndexByte(mark, '.')+1:])
		tmuxtest.Run(b, sock, "wait-for", "-S", "go")
		var wg sync.WaitGroup
		missedAll := make([]int64, len(readers))
		for i, c := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cursor := cursors[i]
				start := cursorOffset(cursor)
				for cursorOffset(cursor)-start < total {
					got, err := c.tool("capture_since", map[string]any{"paneId": "%1", "cursor": cursor, "waitMs": 2000})
					if err != nil {
						b.Error(err)
						return
					}
					nc := got["cursor"].(string)
					missed := int64(got["missedBytes"].(float64))
					omitted := int64(got["omittedBytes"].(float64))
					text := int64(len(got["text"].(string)))
					if cursorOffset(nc)-cursorOffset(cursor) != missed+omitted+text {
						b.Errorf("reader %d: advanced %d != missed %d + omitted %d + text %d", i, cursorOffset(nc)-cursorOffset(cursor), missed, omitted, text)
						return
					}
					missedAll[i] += missed
					cursor = nc
				}
				if got := cursorOffset(cursor) - start; got != total {
					b.Errorf("reader %d: stream advanced %d, want %d", i, got, total)
				}
			}()
		}
		wg.Wait()
		tmuxtest.Run(b, sock, "wait-for", "done")
		b.ReportMetric(peakRSSMiB(host), "host-peak-RSS-MiB")
		b.ReportMetric(peakRSSMiB(readers[0].pid()), "reader-peak-RSS-MiB")
		b.ReportMetric(float64(missedAll[0]+missedAll[1]+missedAll[2])/3, "mean-missed-bytes")
		b.ReportMetric(0, "ns/op")
	}
}

// BenchmarkTapWaitWakeup is BenchmarkWaitWakeup with one and with three
// instances waiting on the pane: how long after a bare control client sees
// the output the first instance's wait_for_text answers.
func BenchmarkTapWaitWakeup(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("readers=%d", n), func(b *testing.B) {
			sock := tmuxtest.Server(b)
			tmuxtest.Run(b, sock, "new-window", "-t", "main:", "cat")
			var cs []*mcpServer
			for range n {
				cs = append(cs, launchMCP(b, sock, ""))
			}
			// Each wait starts from the cursor the instance's last answer
			// gave, so a wait that subscribes after the marker is printed
			// (a loaded machine, slower than the settle below) still
			// matches it rather than timing out; such a sample is only
			// slow. Nothing outside an instance can tell that its wait has
			// subscribed, so the settle stays.
			var cursors []string
			for _, c := range cs {
				cursors = append(cursors, c.mustTool(b, "capture_since", map[string]any{"paneId": "%1"})["cursor"].(string))
			}
			bare := attachBare(b, sock, "main")
			var overhead []time.Duration
			for i := 0; b.Loop(); i++ {
				marker := "mark" + strconv.Itoa(i) + "x"
				var replies []string
				for j, c := range cs {
					replies = append(replies, c.start("tools/call", map[string]any{"name": "wait_for_text", "arguments": map[string]any{
						"paneId": "%1", "patterns": []string{marker}, "cursor": cursors[j], "timeoutMs": 10000}}))
				}
				time.Sleep(50 * time.Millisecond) // settle: every wait has subscribed
				seen := bare.expect(marker)
				// Natively: a spawned tmux client would be exiting on the
				// other core just as the output is read, in the window measured.
				tmuxtest.RunNative(b, sock, "send-keys", "-t", "%1", "-l", marker+"\n")
				t0 := bare.await(b, seen)
				for j, c := range cs {
					out := c.mustAnswer(b, "wait_for_text", replies[j])
					if out["outcome"] != "matched" {
						b.Fatalf("instance %d: outcome %v", j, out["outcome"])
					}
					cursors[j] = out["cursor"].(string)
				}
				t1, _ := cs[0].Arrived(replies[0])
				overhead = append(overhead, t1.Sub(t0))
			}
			b.ReportMetric(ms(median(overhead)), "median-ms-after-bare-client")
			b.ReportMetric(0, "ns/op")
		})
	}
}
