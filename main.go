package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/cli"
	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/server/httpserve"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tools"
	"github.com/tmux-mcp/tmux-mcp/tools/stdio"
)

// version is set at release time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	if len(os.Args) < 2 || os.Args[1] != live.TapWord {
		tuneGC()
	}
	tuneProcs()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent is a server's GOGC unless the environment sets one. A read
// call leaves about 85 KB of garbage (64 KB of it the two 32 KiB buffers
// go-sdk's decoder takes per request) over a live heap of a few MB, so at
// Go's default the heap's 4 MB floor meant a collection every 20 calls
// and the collector about a quarter of a call's CPU; at 400 the floor is
// 16 MB, with 8 times fewer collections. The price is a heap that may
// grow to five times what is live rather than twice.
const gcPercent = 400

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// tuneProcs halves GOMAXPROCS, at least one, unless the environment sets
// it. Server and tap relay between tmux (one thread) and a client: their
// Go work is short bursts between waits, and Go keeps idle Ps' threads
// spinning for work after each burst, which on a small machine takes the
// core tmux needs. With one P on 2 cores a read call answered about
// 60 µs sooner and a wait_for_text woke about 50 µs sooner, with the
// same throughput for 16 concurrent calls (BenchmarkReadToolTargets,
// BenchmarkTapWaitWakeup, BenchmarkToolConcurrentGetPaneInfo).
func tuneProcs() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(max(1, runtime.GOMAXPROCS(0)/2))
	}
}

// config is everything the flags and their environment twins set.
type config struct {
	socketName, socketPath string
	tmuxBin                string
	tmuxClient             string
	safety                 string
	toolsets, tools        string
	waitCeilingMs          int
	maxLines, maxBytes     int
	streamBuffer           int
	streamIdle, exitGrace  time.Duration
	startGrace             time.Duration
	noShellMarks           bool
	showVersion            bool
	// A subcommand (package cli) and its words; the rest of tmux-mcp's
	// own additions to serving: HTTP and the audit log.
	command         *cli.Command
	args            []string
	httpAddr        string
	httpTokenFile   string
	httpAllowRemote bool
	auditFile       string
}

// envDefault returns the environment twin of a flag, or def.
func envDefault(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// parseFlags reads flags over environment over defaults. Both -L and
// --socket-name (and so on) are accepted. A first word naming a
// subcommand (tmux-mcp call …) selects it; its flags join the server's,
// and the words among them are its arguments.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	if len(args) > 0 {
		if c.command = cli.Lookup(args[0]); c.command != nil {
			args = args[1:]
		}
	}
	fs := flag.NewFlagSet("tmux-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var errs []error
	intFlag := func(p *int, name, env string, def int, usage string) {
		v := def
		if s, ok := os.LookupEnv(env); ok {
			n, err := strconv.Atoi(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: want a whole number", env, s))
			}
			v = n
		}
		fs.IntVar(p, name, v, usage+" (env "+env+")")
	}
	durFlag := func(p *time.Duration, name, env string, def time.Duration, usage string) {
		v := def
		if s, ok := os.LookupEnv(env); ok {
			d, err := time.ParseDuration(s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: want a duration such as 10m", env, s))
			}
			v = d
		}
		fs.DurationVar(p, name, v, usage+" (env "+env+")")
	}
	strFlag := func(p *string, names []string, env, def, usage string) {
		v := envDefault(env, def)
		for _, n := range names {
			fs.StringVar(p, n, v, usage+" (env "+env+")")
		}
	}
	strFlag(&c.socketName, []string{"socket-name", "L"}, "TMUX_MCP_SOCKET_NAME", "", "tmux socket name, as tmux -L")
	strFlag(&c.socketPath, []string{"socket-path", "S"}, "TMUX_MCP_SOCKET_PATH", "", "tmux socket path, as tmux -S; wins over -L")
	strFlag(&c.safety, []string{"safety"}, "TMUX_MCP_SAFETY", "mutating", "tools offered: readonly, mutating or destructive")
	strFlag(&c.toolsets, []string{"toolsets"}, "TMUX_MCP_TOOLSETS", "default", "toolsets offered, comma-separated: "+strings.Join(tools.ToolsetNames(), ", "))
	strFlag(&c.tools, []string{"tools"}, "TMUX_MCP_TOOLS", "", "single tools offered besides the toolsets, comma-separated")
	strFlag(&c.tmuxBin, []string{"tmux"}, "TMUX_MCP_TMUX_BIN", "tmux", "tmux executable")
	strFlag(&c.tmuxClient, []string{"tmux-client"}, "TMUX_MCP_TMUX_CLIENT", tmuxctl.TransportNative, "how commands reach tmux: native (its client protocol over the socket, no process; falls back to exec on a server it does not understand) or exec (run the tmux executable for each)")
	intFlag(&c.waitCeilingMs, "wait-ceiling", "TMUX_MCP_WAIT_CEILING_MS", int(handlers.DefaultLimits.WaitCeiling/time.Millisecond), "longest wait any call may make, in ms; longer requests are clamped")
	intFlag(&c.maxLines, "max-lines", "TMUX_MCP_MAX_LINES", handlers.DefaultLimits.MaxLines, "most lines of pane text in one result")
	intFlag(&c.maxBytes, "max-bytes", "TMUX_MCP_MAX_BYTES", handlers.DefaultLimits.MaxBytes, "most bytes of text in one result")
	intFlag(&c.streamBuffer, "stream-buffer", "TMUX_MCP_STREAM_BUFFER", live.DefaultOptions.BufferBytes, "bytes of output kept per watched pane")
	durFlag(&c.streamIdle, "stream-idle", "TMUX_MCP_STREAM_IDLE", live.DefaultOptions.Idle, "a pane stream unread this long expires")
	durFlag(&c.startGrace, "start-grace", "TMUX_MCP_START_GRACE", handlers.DefaultLimits.StartGrace, "a program create_session, create_window or split_window starts that exits within this is reported as not started")
	durFlag(&c.exitGrace, "exit-grace", "TMUX_MCP_EXIT_GRACE", live.DefaultOptions.ExitGrace, "how long a pane's exit status is held after the last wait on it")
	fs.BoolVar(&c.noShellMarks, "no-shell-marks", envDefault("TMUX_MCP_NO_SHELL_MARKS", "") != "", "panes made with the default shell (bash, zsh, fish) get no OSC 133 prompt marks (env TMUX_MCP_NO_SHELL_MARKS)")
	fs.BoolVar(&c.showVersion, "version", false, "print the version and exit")
	strFlag(&c.httpAddr, []string{"http"}, "TMUX_MCP_HTTP", "", "serve MCP over streamable HTTP at http://ADDR/mcp instead of stdio (token from $TMUX_MCP_HTTP_TOKEN or --http-token-file)")
	strFlag(&c.httpTokenFile, []string{"http-token-file"}, "TMUX_MCP_HTTP_TOKEN_FILE", "", "file holding the bearer token HTTP requests must carry")
	fs.BoolVar(&c.httpAllowRemote, "http-allow-remote", false, "let --http listen on an address other than loopback")
	strFlag(&c.auditFile, []string{"audit"}, "TMUX_MCP_AUDIT", "", "append one JSON line per tool call to this file (never argument values)")
	if c.command != nil {
		c.command.Flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: tmux-mcp [command] [flags]\n\n"+
			"An MCP server on stdio that drives tmux. Every flag has an environment twin;\n"+
			"a flag wins over its twin. Commands, for people (they share the flags):\n%s\n", cli.Names())
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nToolsets (--safety still filters what they offer):\n%s", tools.ToolsetTable())
	}
	for {
		if err := fs.Parse(args); err != nil {
			return c, err
		}
		if fs.NArg() == 0 {
			break
		}
		if c.command == nil && len(c.args) == 0 {
			// The first word after some flags (tmux-mcp -L x call …).
			if c.command = cli.Lookup(fs.Arg(0)); c.command != nil {
				c.command.Flags(fs)
				args = fs.Args()[1:]
				continue
			}
		}
		if c.command == nil {
			errs = append(errs, fmt.Errorf("unexpected argument %q; tmux-mcp takes flags, or a command (%s)", fs.Arg(0), cli.List()))
			break
		}
		c.args, args = append(c.args, fs.Arg(0)), fs.Args()[1:]
	}
	// Every number is range-checked here, so no handler can overflow one
	// after doing its work (a ceiling of 1e13 ms once wrapped negative).
	for _, r := range []struct {
		name      string
		v, lo, hi int
	}{
		{"--wait-ceiling (ms)", c.waitCeilingMs, 1, 24 * 3600 * 1000},
		{"--max-lines", c.maxLines, 1, 1_000_000},
		{"--max-bytes", c.maxBytes, 1, 64 << 20},
		{"--stream-buffer", c.streamBuffer, 1, 1 << 30},
	} {
		if r.v < r.lo || r.v > r.hi {
			errs = append(errs, fmt.Errorf("%s must be from %d to %d, got %d", r.name, r.lo, r.hi, r.v))
		}
	}
	for _, r := range []struct {
		name string
		v    time.Duration
	}{{"--stream-idle", c.streamIdle}, {"--exit-grace", c.exitGrace}, {"--start-grace", c.startGrace}} {
		if r.v <= 0 || r.v > 7*24*time.Hour {
			errs = append(errs, fmt.Errorf("%s must be a positive duration of at most 168h, got %v", r.name, r.v))
		}
	}
	if _, err := tools.ParseTier(c.safety); err != nil {
		errs = append(errs, err)
	}
	if c.tmuxClient != tmuxctl.TransportNative && c.tmuxClient != tmuxctl.TransportExec {
		errs = append(errs, fmt.Errorf("--tmux-client must be %s or %s, got %q", tmuxctl.TransportNative, tmuxctl.TransportExec, c.tmuxClient))
	}
	if _, err := tools.ParseSelection(c.toolsets, c.tools); err != nil {
		errs = append(errs, err)
	}
	if c.httpAddr != "" {
		if err := httpserve.CheckAddr(c.httpAddr, c.httpAllowRemote); err != nil {
			errs = append(errs, err)
		}
	}
	return c, errors.Join(errs...)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == live.TapWord { // tmux runs us as a pane's tap
		return live.RunTap(args[1:], stdin, stderr)
	}
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "tmux-mcp: %v\n", err)
		return 2
	}
	if cfg.showVersion {
		fmt.Fprintln(stdout, "tmux-mcp", version)
		return 0
	}
	tier, _ := tools.ParseTier(cfg.safety)
	sel, _ := tools.ParseSelection(cfg.toolsets, cfg.tools)
	if cfg.command != nil {
		return cfg.command.Run(cliEnv(cfg, tier, sel, stdin, stdout, stderr))
	}
	client := tmuxctl.New(tmuxctl.Config{Binary: cfg.tmuxBin, SocketName: cfg.socketName, SocketPath: cfg.socketPath, TmuxClient: cfg.tmuxClient})

	ctx := context.Background()
	// The start-up line waits for tmux's version; serving does not: a
	// client's initialize is answered meanwhile.
	announceCtx, stopAnnouncing := context.WithCancel(ctx)
	announced := make(chan struct{})
	go func() {
		defer close(announced)
		announce(announceCtx, client, tier, stderr)
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

	if f, ok := stdin.(*os.File); ok && cfg.httpAddr == "" {
		in, restore := interruptibleInput(f)
		defer restore()
		stdin = in
	}

	serveOn := serve
	if cfg.httpAddr != "" {
		serveOn = httpServer(cfg, stderr)
	}
	err = serveOn(ctx, serveOptions{
		Setup: setup(cfg),
		Tmux:  client,
		Limits: handlers.Limits{
			WaitCeiling: time.Duration(cfg.waitCeilingMs) * time.Millisecond,
			MaxLines:    cfg.maxLines,
			MaxBytes:    cfg.maxBytes,
			StartGrace:  cfg.startGrace,
			NoMarks:     cfg.noShellMarks,
		},
		Live:  live.Options{BufferBytes: cfg.streamBuffer, Idle: cfg.streamIdle, ExitGrace: cfg.exitGrace, TapBinary: tapBinary()},
		Tier:  tier,
		Tools: sel,
		In:    stdin,
		Out:   stdout,
		Stop:  stop,
	})
	if err != nil {
		fmt.Fprintf(stderr, "tmux-mcp: %v\n", err)
		return 1
	}
	return 0
}

// announce prints the start-up line: the socket, the tmux it talks to (the
// running server's version, else the binary's), the client and the safety
// tier, after any warning about that tmux.
func announce(ctx context.Context, client *tmuxctl.Client, tier tools.Class, stderr io.Writer) {
	tmuxVersion := "unknown"
	switch v, fromServer, err := client.ProbeVersion(ctx); {
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
	fmt.Fprintf(stderr, "tmux-mcp %s: socket %s, tmux %s, client %s, safety %s\n", version, client.Describe(), tmuxVersion, client.Transport(), tools.TierName(tier))
}

// serveOptions are what [serve] wires together.
type serveOptions struct {
	Tmux   *tmuxctl.Client
	Limits handlers.Limits
	// Live configures streams and exit holds; serve sets ReadOnly from Tier.
	Live live.Options
	Tier tools.Class
	// Tools is what the server offers before Tier filters it.
	Tools tools.Selection
	In    io.Reader
	Out   io.Writer
	// Stop, when closed, ends the server as EOF on In does: SIGTERM,
	// SIGINT and SIGHUP.
	Stop <-chan struct{}
	// Setup, when set, adds to the server before it serves (the audit log).
	Setup func(*server.Server) error
}

// How the server ends once its input has (EOF on In, or Stop). Waits end
// at once: the client that asked has gone, so nothing waits for the text
// or exit they wait for, and each answers cancelled with what it saw.
// Calls that do not wait (send_keys, a capture, a kill) are work an agent
// asked for, and take milliseconds: they get callGrace to finish and
// answer normally. What still runs then is cancelled, and what has not
// answered answerGrace later is dropped: longer than tmuxctl gives a
// cancelled tmux child before killing it (half a second), so a call stuck
// on a wedged tmux still answers. With a tmux that answers, waits answer
// at once and the process exits as soon as the hub has cleaned up.
const (
	callGrace   = time.Second
	answerGrace = time.Second
)

// serve builds the server (package server) and runs it over In and Out
// until input ends (EOF or Stop) and every call in flight has answered or
// been given up on, then joins the goroutines it started and closes the
// server.
func serve(ctx context.Context, o serveOptions) error {
	srv, err := server.New(server.Options{Version: version, Tmux: o.Tmux, Limits: o.Limits, Live: o.Live, Tier: o.Tier, Tools: o.Tools})
	if err != nil {
		return err
	}
	defer srv.Close()
	if o.Setup != nil {
		if err := o.Setup(srv); err != nil {
			return err
		}
	}

	transport := stdio.New(o.In, o.Out)
	if os.Getenv("TMUX_MCP_SDK_CALLS") == "" {
		// Plain tools/calls skip go-sdk's request path (see
		// tools.Shortcut); TMUX_MCP_SDK_CALLS=1 sends every one through it.
		transport.SetShortcut(srv.Shortcut.Claim)
	}
	// Runs before srv.Close: the reader is joined where it can be
	// interrupted (see interruptibleInput); on a terminal it ends with
	// the process.
	defer transport.Close()
	running := make(chan struct{}) // closed when the session has ended
	var ending sync.WaitGroup
	ending.Go(func() { endAfterInput(ctx, o.Stop, srv, transport, running) })
	err = srv.MCP.Run(context.Background(), transport)
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
func endAfterInput(ctx context.Context, stop <-chan struct{}, srv *server.Server, transport *stdio.Transport, running <-chan struct{}) {
	select {
	case <-stop:
		transport.StopAfterReadable()
	case <-ctx.Done():
		transport.Stop()
	case <-transport.Ended():
	case <-running:
		return
	}
	srv.EndWaits()
	select {
	case <-transport.Drained():
		return
	case <-running:
		return
	case <-time.After(callGrace):
	}
	srv.CancelCalls()
	select {
	case <-transport.Drained():
		return
	case <-running:
		return
	case <-time.After(answerGrace):
	}
	transport.ForceClose()
}
