package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/server/httpserve"
	"github.com/tmux-mcp/tmux-mcp/tools/stdio"
)

// Serve builds the server cfg describes and serves it until its input
// ends: over stdin and stdout, or over HTTP when cfg.HTTPAddr is set.
// SIGTERM, SIGINT and SIGHUP end it as EOF does. It prints the start-up
// line on stderr, and returns once the calls in flight have answered (or
// been given up on, see [Server.ServeStdio]) and everything the server
// set in tmux is put back.
func Serve(ctx context.Context, cfg Config, stdin io.Reader, stdout, stderr io.Writer) error {
	var token string
	if cfg.HTTPAddr != "" { // refused before anything starts
		var err error
		if token, err = httpserve.Token(cfg.HTTPTokenFile); err != nil {
			return err
		}
	}
	srv, err := New(cfg)
	if err != nil {
		return err
	}
	defer srv.Close()

	// The start-up line waits for tmux's version; serving does not: a
	// client's initialize is answered meanwhile.
	announceCtx, stopAnnouncing := context.WithCancel(ctx)
	announced := make(chan struct{})
	go func() {
		defer close(announced)
		srv.announce(announceCtx, stderr)
	}()
	defer func() {
		stopAnnouncing()
		<-announced
	}()

	// SIGHUP (the terminal or client went away) ends the server like
	// SIGTERM and SIGINT, and like EOF: waits answer cancelled, other calls
	// finish, and everything set in tmux is put back. SIGPIPE is ignored:
	// a write to a closed stdout then fails, and the transport ends the
	// session as at EOF; a write to another closed socket (a tmux server
	// that went away under the native client, a pane's tap) fails that
	// write alone. (By default Go would die of a SIGPIPE on stdout and
	// leave it all behind; taken as a stop, a tmux server killed under a
	// command would stop this server too.)
	signal.Ignore(syscall.SIGPIPE)
	stop := make(chan struct{})
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	served := make(chan struct{})
	var watching sync.WaitGroup
	watching.Go(func() {
		select {
		case <-signals:
			close(stop)
		case <-served:
		}
	})
	defer func() {
		signal.Stop(signals)
		close(served)
		watching.Wait()
	}()

	if cfg.HTTPAddr != "" {
		return srv.ServeHTTP(ctx, token, stop, stderr)
	}
	if f, ok := stdin.(*os.File); ok {
		in, restore := interruptibleInput(f)
		defer restore()
		stdin = in
	}
	return srv.ServeStdio(ctx, stdin, stdout, stop)
}

// announce prints the start-up line: the socket, the tmux it talks to (the
// running server's version, else the binary's), the client and the safety
// tier, after any warning about that tmux.
func (s *Server) announce(ctx context.Context, stderr io.Writer) {
	tmuxVersion := "unknown"
	switch v, fromServer, err := s.Tmux.ProbeVersion(ctx); {
	case err == nil:
		tmuxVersion = v.String() + " (binary; no server yet)"
		if fromServer {
			tmuxVersion = v.String() + " (server)"
		}
		if !v.AtLeast(3, 2) {
			fmt.Fprintf(stderr, "tmux-mcp: warning: tmux %s is older than 3.2a, the oldest supported\n", v)
		}
	case ctx.Err() != nil: // serving ended first
	case fromServer:
		fmt.Fprintf(stderr, "tmux-mcp: warning: %v\n", err)
	default:
		fmt.Fprintf(stderr, "tmux-mcp: warning: %v; tools will fail until tmux is installed\n", err)
	}
	fmt.Fprintf(stderr, "tmux-mcp %s: socket %s, tmux %s, client %s, safety %s\n",
		s.cfg.Version, s.Tmux.Describe(), tmuxVersion, s.Tmux.Transport(), s.cfg.TierName())
}

// How the server ends once its input has (EOF on In, or Stop). Waits end
// at once: the client that asked has gone, so nothing waits for the text
// or exit they wait for, and each answers cancelled with what it saw.
// Calls that do not wait (send_keys, a capture, a kill) are work an agent
// asked for and take milliseconds, but on a loaded machine, with every
// wait answering at the same moment, one tmux command can take over a
// second (CI saw a capture sent with SIGINT cancelled after a grace of
// one): they get callGrace, from when the server is ready, to finish and
// answer normally. What still runs then is cancelled, and what has not
// answered answerGrace later is dropped: longer than tmuxctl gives a
// cancelled tmux child before killing it (half a second), so a call stuck
// on a wedged tmux still answers. With a tmux that answers, the process
// exits as soon as the calls have answered and the hub has cleaned up;
// only a wedged tmux makes it take the whole four seconds.
const (
	callGrace   = 3 * time.Second
	answerGrace = time.Second
)

// ServeStdio serves one MCP session over in and out until input ends (EOF
// or stop) and every call in flight has answered or been given up on,
// then joins the goroutines it started. The caller closes the server.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, stop <-chan struct{}) error {
	transport := stdio.New(in, out)
	// Runs before the caller's Close: the reader is joined where it can
	// be interrupted (see interruptibleInput); on a terminal it ends with
	// the process.
	defer transport.Close()
	running := make(chan struct{}) // closed when the session has ended
	var ending sync.WaitGroup
	ending.Go(func() { s.endAfterInput(ctx, stop, transport, running) })
	err := s.MCP.Run(context.Background(), transport)
	close(running)
	ending.Wait()
	if err == io.EOF {
		err = nil
	}
	return err
}

// endAfterInput waits for input to end (EOF, stop or ctx), then ends the
// calls in flight as the constants above say. It returns as soon as the
// session has ended.
func (s *Server) endAfterInput(ctx context.Context, stop <-chan struct{}, transport *stdio.Transport, running <-chan struct{}) {
	select {
	case <-stop:
		transport.StopAfterReadable()
	case <-ctx.Done():
		transport.Stop()
	case <-transport.Ended():
	case <-running:
		return
	}
	s.EndWaits()
	// The grace counts from when the server is ready: a call sent with
	// the input's last line is held until then (see held), and on a busy
	// machine getting ready can take longer than the grace itself.
	readySoon, cancel := context.WithTimeout(context.Background(), readyAfterCancel)
	s.ready(readySoon, true)
	cancel()
	select {
	case <-transport.Drained():
		return
	case <-running:
		return
	case <-time.After(callGrace):
	}
	s.CancelCalls()
	select {
	case <-transport.Drained():
		return
	case <-running:
		return
	case <-time.After(answerGrace):
	}
	transport.ForceClose()
}

// ServeHTTP serves MCP over streamable HTTP at the configured address
// behind the bearer token until stop (SIGTERM, SIGINT) or ctx. The caller
// closes the server.
func (s *Server) ServeHTTP(ctx context.Context, token string, stop <-chan struct{}, stderr io.Writer) error {
	origins, err := httpserve.ParseOrigins(s.cfg.HTTPAllowOrigins)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.cfg.HTTPAddr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "tmux-mcp: serving MCP at http://%s%s (bearer token required)\n", ln.Addr(), httpserve.Path)
	return httpserve.Serve(ctx, ln, httpserve.Handler(s.MCP, token, origins...), stop, s.CancelCalls)
}
