package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
)

// An Env is what a subcommand runs with: the server's configuration as
// the shared flags set it, the words after the flags, and where to write.
type Env struct {
	// Config is the whole server's configuration, as it would serve
	// (demo points it at a private tmux).
	server.Config
	Args   []string
	Stdin  io.Reader // call's arguments when given as "-"
	Stdout io.Writer
	Stderr io.Writer
}

// A Command is one subcommand. Lookup returns a fresh one each time, so
// its flags belong to one run.
type Command struct {
	Name    string
	Usage   string // the words after the name, e.g. "TOOL [JSON]"
	Summary string
	json    bool
	match   string // watch: the text to report when printed
	flags   func(c *Command, fs *flag.FlagSet)
	run     func(ctx context.Context, c *Command, env Env) int
}

// Exit statuses shared by the subcommands.
const (
	exitOK    = 0
	exitError = 1 // the tool or the setup failed
	exitUsage = 2 // the command line was wrong
)

func commands() []*Command {
	jsonFlag := func(c *Command, fs *flag.FlagSet) {
		fs.BoolVar(&c.json, "json", false, "print JSON for machines")
	}
	return []*Command{
		{Name: "call", Usage: "TOOL [JSON]", Summary: "call one tool and print its result", flags: jsonFlag, run: runCall},
		{Name: "demo", Summary: "show the tools working on a private tmux, then remove it", run: runDemo},
		{Name: "doctor", Summary: "check tmux, its socket and server, and leftovers", run: runDoctor},
		{Name: "tools", Summary: "list the tools this configuration offers", flags: jsonFlag, run: runTools},
		{Name: "watch", Usage: "PANE…", Summary: "print a line per event in panes (command ended, exited, matched) until interrupted", flags: func(c *Command, fs *flag.FlagSet) {
			jsonFlag(c, fs)
			fs.StringVar(&c.match, "match", "", "watch: also report each time a pane prints this text")
		}, run: runWatch},
	}
}

// Lookup returns the subcommand named word, or nil when word is not one
// (then tmux-mcp serves MCP on stdio as it always has).
func Lookup(word string) *Command {
	for _, c := range commands() {
		if c.Name == word {
			return c
		}
	}
	return nil
}

// Names lists the subcommands with their summaries, for --help.
func Names() string {
	cs := commands()
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	s := ""
	for _, c := range cs {
		s += fmt.Sprintf("  %-7s %s\n", c.Name, c.Summary)
	}
	return s
}

// Flags adds the subcommand's own flags to the server's flag set.
func (c *Command) Flags(fs *flag.FlagSet) {
	if c.flags != nil {
		c.flags(c, fs)
	}
}

// Run runs the subcommand and returns its exit status. SIGINT and SIGTERM
// cancel it: a call in flight is cancelled as a client would cancel it,
// and demo still removes what it made.
func (c *Command) Run(env Env) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return c.run(ctx, c, env)
}

// A session is one in-memory MCP client connected to a whole server.
type session struct {
	srv *server.Server
	*mcp.ClientSession
}

// connect builds the server for cfg and connects a client to it.
func connect(ctx context.Context, cfg server.Config) (*session, error) {
	return connectWith(ctx, cfg, nil)
}

// connectWith is connect with a client that has options co.
func connectWith(ctx context.Context, cfg server.Config, co *mcp.ClientOptions) (*session, error) {
	srv, err := server.New(cfg)
	if err != nil {
		return nil, err
	}
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.MCP.Connect(ctx, st, nil); err != nil {
		srv.Close()
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "tmux-mcp-cli", Version: cfg.Version}, co)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		srv.Close()
		return nil, err
	}
	return &session{srv: srv, ClientSession: cs}, nil
}

// Close ends the connection and then the server, which puts back
// everything it set in tmux.
func (s *session) Close() {
	s.ClientSession.Close()
	s.srv.Close()
}

// text joins a result's text blocks, as an agent reads them.
func text(r *mcp.CallToolResult) string {
	s := ""
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if s != "" {
				s += "\n"
			}
			s += t.Text
		}
	}
	return s
}

// List names the subcommands, for an error message.
func List() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
