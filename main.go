package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/tmux-mcp/tmux-mcp/cli"
	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// version is set at release time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	if len(os.Args) < 2 || os.Args[1] != live.HostWord {
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

// config is what the command line says: the server's configuration, and
// a subcommand (package cli) with its words, or --version.
type config struct {
	server.Config
	showVersion bool
	command     *cli.Command
	args        []string
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
	def := server.Defaults()
	c := config{Config: def}
	c.Version = version
	c.SDKCalls = os.Getenv("TMUX_MCP_SDK_CALLS") != ""
	c.TapBinary = tapBinary()
	var waitCeilingMs int
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
	strFlag(&c.SocketName, []string{"socket-name", "L"}, "TMUX_MCP_SOCKET_NAME", "", "tmux socket name, as tmux -L")
	strFlag(&c.SocketPath, []string{"socket-path", "S"}, "TMUX_MCP_SOCKET_PATH", "", "tmux socket path, as tmux -S; wins over -L")
	strFlag(&c.Safety, []string{"safety"}, "TMUX_MCP_SAFETY", def.Safety, "tools offered: readonly, mutating or destructive")
	strFlag(&c.Toolsets, []string{"toolsets"}, "TMUX_MCP_TOOLSETS", def.Toolsets, "toolsets offered, comma-separated: "+server.ToolsetNames())
	strFlag(&c.Tools, []string{"tools"}, "TMUX_MCP_TOOLS", "", "single tools offered besides the toolsets, comma-separated")
	strFlag(&c.TmuxBinary, []string{"tmux"}, "TMUX_MCP_TMUX_BIN", def.TmuxBinary, "tmux executable")
	strFlag(&c.TmuxClient, []string{"tmux-client"}, "TMUX_MCP_TMUX_CLIENT", def.TmuxClient, "how commands reach tmux: native (its client protocol over the socket, no process; falls back to exec on a server it does not understand) or exec (run the tmux executable for each)")
	intFlag(&waitCeilingMs, "wait-ceiling", "TMUX_MCP_WAIT_CEILING_MS", int(def.WaitCeiling/time.Millisecond), "longest wait any call may make, in ms; longer requests are clamped")
	intFlag(&c.MaxLines, "max-lines", "TMUX_MCP_MAX_LINES", def.MaxLines, "most lines of pane text in one result")
	intFlag(&c.MaxBytes, "max-bytes", "TMUX_MCP_MAX_BYTES", def.MaxBytes, "most bytes of text in one result")
	intFlag(&c.StreamBuffer, "stream-buffer", "TMUX_MCP_STREAM_BUFFER", def.StreamBuffer, "bytes of output kept per watched pane")
	durFlag(&c.StreamIdle, "stream-idle", "TMUX_MCP_STREAM_IDLE", def.StreamIdle, "a pane stream unread this long expires")
	durFlag(&c.StartGrace, "start-grace", "TMUX_MCP_START_GRACE", def.StartGrace, "a program create_session, create_window or split_window starts that exits within this is reported as not started")
	durFlag(&c.ExitGrace, "exit-grace", "TMUX_MCP_EXIT_GRACE", def.ExitGrace, "how long a pane's exit status is held after the last wait on it")
	fs.BoolVar(&c.NoShellMarks, "no-shell-marks", envDefault("TMUX_MCP_NO_SHELL_MARKS", "") != "", "panes made with the default shell (bash, zsh, fish) get no OSC 133 prompt marks (env TMUX_MCP_NO_SHELL_MARKS)")
	fs.BoolVar(&c.NoSpare, "no-spare", envDefault("TMUX_MCP_NO_SPARE", "") != "", "run_program keeps no spare pane ready in the tmux-mcp session (env TMUX_MCP_NO_SPARE)")
	fs.BoolVar(&c.showVersion, "version", false, "print the version and exit")
	strFlag(&c.HTTPAddr, []string{"http"}, "TMUX_MCP_HTTP", "", "serve MCP over streamable HTTP at http://ADDR/mcp instead of stdio (token from $TMUX_MCP_HTTP_TOKEN or --http-token-file)")
	strFlag(&c.HTTPTokenFile, []string{"http-token-file"}, "TMUX_MCP_HTTP_TOKEN_FILE", "", "file holding the bearer token HTTP requests must carry")
	fs.BoolVar(&c.HTTPAllowRemote, "http-allow-remote", false, "let --http listen on an address other than loopback")
	strFlag(&c.HTTPAllowOrigins, []string{"http-allow-origin"}, "TMUX_MCP_HTTP_ALLOW_ORIGIN", "", "browser origins served over --http besides loopback ones and the server's own, comma-separated: https://HOST[:PORT]")
	strFlag(&c.AuditFile, []string{"audit"}, "TMUX_MCP_AUDIT", "", "append one JSON line per tool call to this file (never argument values)")
	if c.command != nil {
		c.command.Flags(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: tmux-mcp [command] [flags]\n\n"+
			"An MCP server on stdio that drives tmux. Every flag has an environment twin;\n"+
			"a flag wins over its twin. Commands, for people (they share the flags):\n%s\n", cli.Names())
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nToolsets (--safety still filters what they offer):\n%s", server.ToolsetHelp())
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
	// Range-checked as milliseconds, before the conversion could wrap
	// (1e13 ms once came out negative).
	if lo, hi := 1, int(server.MaxWaitCeiling/time.Millisecond); waitCeilingMs < lo || waitCeilingMs > hi {
		errs = append(errs, fmt.Errorf("--wait-ceiling (ms) must be from %d to %d, got %d", lo, hi, waitCeilingMs))
	} else {
		c.WaitCeiling = time.Duration(waitCeilingMs) * time.Millisecond
	}
	if err := c.Check(); err != nil {
		errs = append(errs, err)
	}
	return c, errors.Join(errs...)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == live.HostWord { // an instance starts us as the stream host
		return live.RunHost(args[1:], stderr)
	}
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "tmux-mcp: %v\n", err)
		return 2
	}
	switch {
	case cfg.showVersion:
		fmt.Fprintln(stdout, "tmux-mcp", version)
		return 0
	case cfg.command != nil:
		return cfg.command.Run(cli.Env{Config: cfg.Config, Args: cfg.args, Stdin: stdin, Stdout: stdout, Stderr: stderr})
	}
	if err := server.Serve(context.Background(), cfg.Config, stdin, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "tmux-mcp: %v\n", err)
		return 1
	}
	return 0
}
