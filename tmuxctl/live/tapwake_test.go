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
			seen := make(chan time.Time, 16)
			go func() {
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "%output %1 ") && strings.Contains(sc.Text(), "wake") {
						seen <- time.Now()
					}
				}
			}()
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
				tmuxtest.Run(b, sock, "send-keys", "-t", "%1", "-l", string(marker)) // the tty echoes it
				t0 := <-seen
				var last time.Time
				for range streams {
					last = <-woke
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
