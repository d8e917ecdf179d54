package inputwait

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// BenchmarkPromptToAwaitingInput measures the time from a prompt appearing
// (the program is told to print it and read) to Await answering: the quiet
// period, the check and its confirming look. Printed, never asserted:
//
//	go test -run '^$' -bench PromptToAwaitingInput ./handlers/internal/inputwait
func BenchmarkPromptToAwaitingInput(b *testing.B) {
	r := newBenchRig(b)
	e := New(r.client)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		ch := "go" + strconv.Itoa(i)
		pane := r.start("tmux wait-for " + ch + "; printf 'Continue? [y/N] '; read a")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		s, err := r.hub.Watch(ctx, pane)
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan Ending, 1)
		go func() {
			end, _ := e.Await(ctx, s, s.End())
			done <- end
		}()
		time.Sleep(600 * time.Millisecond) // the wait settles on a program that is not asking
		b.StartTimer()
		start := time.Now()
		tmuxtest.Run(b, r.sock, "wait-for", "-S", ch)
		end := <-done
		total += time.Since(start)
		cancel()
		if !end.Waiting {
			b.Fatalf("not waiting: %v", end.Evidence)
		}
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-awaiting_input")
}

// BenchmarkIdleWaitCPU measures the CPU time of this process (the engine,
// the hub and the tmux client) and of the tmux server while Await waits on
// 10 panes whose programs sleep (so every wait goes on, checking once a
// second), for TMUX_MCP_BENCH_IDLE (a Go duration; 5s by default). It
// reports the share of one core. Printed, never asserted:
//
//	TMUX_MCP_BENCH_IDLE=60s go test -run '^$' -bench IdleWaitCPU -benchtime 1x ./handlers/internal/inputwait
func BenchmarkIdleWaitCPU(b *testing.B) {
	period := 5 * time.Second
	if v := os.Getenv("TMUX_MCP_BENCH_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		period = d
	}
	r := newBenchRig(b)
	e := New(r.client)
	serverPID, _ := strconv.Atoi(strings.TrimSpace(tmuxtest.Run(b, r.sock, "display-message", "-p", "#{pid}")))
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), period+2*time.Second)
		var wg sync.WaitGroup
		for range 10 {
			pane := r.start("exec sleep 600")
			s, err := r.hub.Watch(ctx, pane)
			if err != nil {
				b.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				e.Await(ctx, s, s.End())
			}()
		}
		time.Sleep(time.Second) // past the waits' setup and first checks
		self0, server0, t0 := selfCPU(), procCPU(serverPID), time.Now()
		time.Sleep(period)
		self1, server1, wall := selfCPU(), procCPU(serverPID), time.Since(t0)
		cancel()
		wg.Wait()
		b.ReportMetric(100*float64(self1-self0)/float64(wall), "%core-engine")
		b.ReportMetric(100*float64(server1-server0)/float64(wall), "%core-tmux")
		fmt.Fprintf(os.Stderr, "idle Await on 10 panes for %s: this process %.2f%% of one core, tmux server %.2f%%\n",
			wall.Round(time.Millisecond), 100*float64(self1-self0)/float64(wall), 100*float64(server1-server0)/float64(wall))
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is process pid's CPU time from /proc; 0 where there is none.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	st, err := parseStat(b)
	if err != nil {
		return 0
	}
	return time.Duration(st.utime+st.stime) * clockTick
}

// newBenchRig is newRig for a benchmark, with the panes' tmux on the
// private server.
func newBenchRig(b *testing.B) *testRig {
	r := newRigTB(b)
	privateTmuxOnPath(b, r)
	return r
}
