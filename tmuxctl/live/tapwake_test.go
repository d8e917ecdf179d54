package live

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// BenchmarkStreamWakeup measures the stream path alone: how long after a
// bare control client sees a pane's %output a reader waiting on the
// pane's Stream wakes with the same text, through a tap and through a
// FIFO of the instance's own. With three readers (three hubs, as three
// instances) on one tap it is the last reader's wake.
func BenchmarkStreamWakeup(b *testing.B) {
	bin, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, via := range []struct {
		name, tap string
		readers   int
	}{{"tap/readers=1", bin, 1}, {"tap/readers=3", bin, 3}, {"fifo/readers=1", "", 1}} {
		b.Run(via.name, func(b *testing.B) {
			sock := tmuxtest.Server(b)
			tmuxtest.Run(b, sock, "new-window", "-t", "main:", "cat")
			var streams []*Stream
			for range via.readers {
				c := tmuxctl.New(tmuxctl.Config{Binary: tmuxtest.Binary(), SocketPath: sock})
				h, err := New(c, Options{TapBinary: via.tap})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(h.Close)
				s, err := h.Watch(context.Background(), "%1")
				if err != nil {
					b.Fatal(err)
				}
				streams = append(streams, s)
			}
			cmd := exec.Command(tmuxtest.Binary(), "-u", "-S", sock, "-C", "attach", "-t", "main")
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { stdin.Close(); cmd.Wait() })
			// The pane's %output can come in pieces: the bare client
			// watches what it has seen so far for the marker it is told.
			var mu sync.Mutex
			var seenText strings.Builder
			want, seen := "", make(chan time.Time, 1)
			expect := func(marker string) {
				mu.Lock()
				defer mu.Unlock()
				seenText.Reset()
				want = marker
			}
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					now := time.Now()
					text, ok := strings.CutPrefix(sc.Text(), "%output %1 ")
					mu.Lock()
					if ok && want != "" {
						seenText.WriteString(text)
						if strings.Contains(seenText.String(), want) {
							want = ""
							seen <- now
						}
					}
					mu.Unlock()
				}
			}()
			within := func(ch <-chan time.Time, what string) time.Time {
				select {
				case t := <-ch:
					return t
				case <-time.After(10 * time.Second):
					b.Fatalf("%s never came", what)
					return time.Time{}
				}
			}
			// The bare client attaches in the background: one marker it
			// has seen first.
			for try := 0; ; try++ {
				expect("ready" + strconv.Itoa(try) + "x")
				tmuxtest.Run(b, sock, "send-keys", "-t", "%1", "-l", "ready"+strconv.Itoa(try)+"x")
				select {
				case <-seen:
				case <-time.After(time.Second):
					if try < 10 {
						continue
					}
					b.Fatal("the bare client never saw the pane's output")
				}
				break
			}
			var lag []time.Duration
			for i := 0; b.Loop(); i++ {
				marker := []byte("wake" + strconv.Itoa(i) + "x")
				woke := make(chan time.Time, len(streams))
				for _, s := range streams {
					off := s.End()
					go func() {
						for {
							changed := s.Changed()
							if ch, _ := s.Read(off); bytes.Contains(ch.Text, marker) {
								woke <- time.Now()
								return
							}
							<-changed
						}
					}()
				}
				expect(string(marker))
				tmuxtest.Run(b, sock, "send-keys", "-t", "%1", "-l", string(marker)) // the tty echoes it
				t0 := within(seen, "the bare client's %output")
				var last time.Time
				for range streams {
					last = within(woke, "a stream's wake")
				}
				lag = append(lag, last.Sub(t0))
				time.Sleep(5 * time.Millisecond)
			}
			slices.Sort(lag)
			b.ReportMetric(float64(lag[len(lag)/2])/float64(time.Millisecond), "median-ms-after-bare-client")
			b.ReportMetric(0, "ns/op")
		})
	}
}
