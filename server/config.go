package server

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tmux-mcp/tmux-mcp/handlers"
	"github.com/tmux-mcp/tmux-mcp/server/httpserve"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// A Config is everything that decides how a server is built and served,
// as plain values: main fills it from flags and environment, the CLI and
// the tests from their own needs, and [New] builds the same server from
// it for all of them. [Defaults] holds every default in one place.
type Config struct {
	Version string // reported in the initialize reply and the start-up line

	// The tmux server: as tmux's -L and -S (SocketPath wins), the tmux
	// executable, and how commands reach it (tmuxctl.TransportNative or
	// tmuxctl.TransportExec).
	SocketName, SocketPath string
	TmuxBinary             string
	TmuxClient             string

	// What is offered: the safety tier (readonly, mutating, destructive),
	// the toolsets and single tools, each comma-separated.
	Safety   string
	Toolsets string
	Tools    string

	// What one call may do.
	WaitCeiling time.Duration // longest wait; longer requests are clamped
	MaxLines    int           // most lines of pane text in one result
	MaxBytes    int           // most bytes of text in one result
	StartGrace  time.Duration // a program that exits within this did not start
	// NoShellMarks: panes made with the default shell get no OSC 133
	// prompt marks (docs/shell-marks.md).
	NoShellMarks bool
	// NoSpare: run_program keeps no spare pane ready (a process that
	// makes one call, or anyone who would rather not see it).
	NoSpare bool

	// Pane streams.
	StreamBuffer int           // bytes of output kept per watched pane
	StreamIdle   time.Duration // a stream unread this long expires
	ExitGrace    time.Duration // how long an exit status is held
	// TapBinary is the executable tmux runs as a pane's tap (this
	// program); empty, each instance reads its panes itself.
	TapBinary string

	// Serving: streamable HTTP at HTTPAddr instead of stdio, behind the
	// bearer token in HTTPTokenFile (else $TMUX_MCP_HTTP_TOKEN).
	HTTPAddr        string
	HTTPTokenFile   string
	HTTPAllowRemote bool
	// HTTPAllowOrigins names, comma-separated, the browser origins
	// served besides loopback ones and the server's own address.
	HTTPAllowOrigins string
	// AuditFile, when set, gets one JSON line per tool call.
	AuditFile string
	// SDKCalls puts every tool on go-sdk's own typed path (mcp.AddTool)
	// rather than tools/callpath's, which is held equal to it.
	SDKCalls bool
}

// Defaults returns the configuration a server has when nothing is set.
func Defaults() Config {
	return Config{
		Version:      "0.1.0-dev",
		TmuxBinary:   "tmux",
		TmuxClient:   tmuxctl.TransportNative,
		Safety:       "mutating",
		Toolsets:     "default",
		WaitCeiling:  handlers.DefaultLimits.WaitCeiling,
		MaxLines:     handlers.DefaultLimits.MaxLines,
		MaxBytes:     handlers.DefaultLimits.MaxBytes,
		StartGrace:   handlers.DefaultLimits.StartGrace,
		StreamBuffer: live.DefaultOptions.BufferBytes,
		StreamIdle:   live.DefaultOptions.Idle,
		ExitGrace:    live.DefaultOptions.ExitGrace,
	}
}

// MaxWaitCeiling is the longest wait ceiling a server takes.
const MaxWaitCeiling = 24 * time.Hour

// Check reports every value out of range, each naming its flag.
func (c Config) Check() error {
	var errs []error
	// Every number is range-checked here, so no handler can overflow one
	// after doing its work (a ceiling of 1e13 ms once wrapped negative).
	for _, r := range []struct {
		name      string
		v, lo, hi int
	}{
		{"--wait-ceiling (ms)", int(c.WaitCeiling / time.Millisecond), 1, int(MaxWaitCeiling / time.Millisecond)},
		{"--max-lines", c.MaxLines, 1, 1_000_000},
		{"--max-bytes", c.MaxBytes, 1, 64 << 20},
		{"--stream-buffer", c.StreamBuffer, 1, 1 << 30},
	} {
		if r.v < r.lo || r.v > r.hi {
			errs = append(errs, fmt.Errorf("%s must be from %d to %d, got %d", r.name, r.lo, r.hi, r.v))
		}
	}
	for _, r := range []struct {
		name string
		v    time.Duration
	}{{"--stream-idle", c.StreamIdle}, {"--exit-grace", c.ExitGrace}, {"--start-grace", c.StartGrace}} {
		if r.v <= 0 || r.v > 7*24*time.Hour {
			errs = append(errs, fmt.Errorf("%s must be a positive duration of at most 168h, got %v", r.name, r.v))
		}
	}
	if _, err := tools.ParseTier(c.Safety); err != nil {
		errs = append(errs, err)
	}
	if c.TmuxClient != tmuxctl.TransportNative && c.TmuxClient != tmuxctl.TransportExec {
		errs = append(errs, fmt.Errorf("--tmux-client must be %s or %s, got %q", tmuxctl.TransportNative, tmuxctl.TransportExec, c.TmuxClient))
	}
	if _, err := tools.ParseSelection(c.Toolsets, c.Tools); err != nil {
		errs = append(errs, err)
	}
	if c.HTTPAddr != "" {
		if err := httpserve.CheckAddr(c.HTTPAddr, c.HTTPAllowRemote); err != nil {
			errs = append(errs, err)
		}
		if _, err := httpserve.ParseOrigins(c.HTTPAllowOrigins); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// WithTool returns c offering tool name too, whatever its toolset, as
// --tools would add it; the tier still decides.
func (c Config) WithTool(name string) Config {
	if c.Tools == "" {
		c.Tools = name
	} else {
		c.Tools += "," + name
	}
	return c
}

// TmuxConfig is the tmux client c describes.
func (c Config) TmuxConfig() tmuxctl.Config {
	return tmuxctl.Config{Binary: c.TmuxBinary, SocketName: c.SocketName, SocketPath: c.SocketPath, TmuxClient: c.TmuxClient}
}

// tier and selection are c's offer, parsed; Check has refused a bad one.
func (c Config) tier() (tools.Class, error) { return tools.ParseTier(c.Safety) }

func (c Config) selection() (tools.Selection, error) {
	return tools.ParseSelection(c.Toolsets, c.Tools)
}

func (c Config) limits() handlers.Limits {
	return handlers.Limits{WaitCeiling: c.WaitCeiling, MaxLines: c.MaxLines, MaxBytes: c.MaxBytes, StartGrace: c.StartGrace, NoMarks: c.NoShellMarks,
		NoSpare: c.NoSpare}
}

func (c Config) liveOptions(tier tools.Class) live.Options {
	return live.Options{BufferBytes: c.StreamBuffer, Idle: c.StreamIdle, ExitGrace: c.ExitGrace,
		TapBinary: c.TapBinary, ReadOnly: tier == tools.ReadOnly}
}

// Offered lists the tools a server built from c serves, in catalogue
// order; a bad tier or selection offers none (Check says why).
func (c Config) Offered() []tools.Tool {
	tier, err := c.tier()
	sel, err2 := c.selection()
	if err != nil || err2 != nil {
		return nil
	}
	return tools.Offered(tier, sel)
}

// Offer is c's toolsets and tools as flags, e.g. "--toolsets default".
func (c Config) Offer() string {
	sel, _ := c.selection()
	return sel.String()
}

// ToolsetHelp is the table of toolsets for --help.
func ToolsetHelp() string { return tools.ToolsetTable() }

// ToolsetNames lists the toolsets, for --help.
func ToolsetNames() string { return strings.Join(tools.ToolsetNames(), ", ") }

// TierName names the safety tier c offers.
func (c Config) TierName() string {
	tier, _ := c.tier()
	return tools.TierName(tier)
}
