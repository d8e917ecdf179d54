package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Ids are tmux's stable object ids: "$1" for a session, "@1" for a window,
// "%1" for a pane. They never change while the object lives.
type (
	SessionID string
	WindowID  string
	PaneID    string
)

// A Session is one row of list-sessions.
type Session struct {
	ID              SessionID
	Name            string
	Windows         int
	AttachedClients int
	CreatedUnix     int64
	Width, Height   int
}

// A Window is one row of list-windows.
type Window struct {
	ID            WindowID
	SessionID     SessionID
	SessionName   string
	Index         int
	Name          string
	Active        bool
	Width, Height int
	Panes         int
	Layout        string
	Zoomed        bool
}

// A Pane is one row of list-panes.
type Pane struct {
	ID            PaneID
	SessionID     SessionID
	SessionName   string
	WindowID      WindowID
	WindowIndex   int
	WindowName    string
	Index         int
	Left, Top     int // position of its top-left cell within the window
	Active        bool
	Width, Height int
	Title         string
	Command       string
	PID           int
	Cwd           string
	Dead          bool
	ExitStatus    *int    // set when Dead and the program exited
	ExitSignal    *string // set when Dead and a signal ended it, e.g. "SIGTERM"
	InMode        bool
	HistorySize   int    // lines of scrollback above the screen
	Piped         bool   // the pane has a pipe-pane, ours or anyone's
	PipeMark      string // its PipeOption: set when the pipe is a tmux-mcp stream's
	HoldMark      string // its HoldOption: set while a tmux-mcp holds it for its exit
	ServerPID     int    // the tmux server's process id
	// What tmux itself learned from the shell's prompt marks (OSC 133):
	// tmux 3.8 reads them; before 3.8 their formats expand to nothing.
	ShellMarked   bool // tmux saw the shell mark a prompt or a command
	CommandRuns   bool // a command the shell marked runs
	CommandStatus *int // the exit status of the last one that ended
}

var sessionFormat = format{"session_id", "session_name", "session_windows", "session_attached",
	"session_created", "window_width", "window_height"}

func sessionFrom(r map[string]string) Session {
	return Session{
		ID:              SessionID(r["session_id"]),
		Name:            r["session_name"],
		Windows:         atoi(r["session_windows"]),
		AttachedClients: atoi(r["session_attached"]),
		CreatedUnix:     int64(atoi(r["session_created"])),
		Width:           atoi(r["window_width"]),
		Height:          atoi(r["window_height"]),
	}
}

var windowFormat = format{"window_id", "session_id", "session_name", "window_index", "window_name",
	"window_active", "window_width", "window_height", "window_panes", "window_layout", "window_zoomed_flag"}

func windowFrom(r map[string]string) Window {
	return Window{
		ID:          WindowID(r["window_id"]),
		SessionID:   SessionID(r["session_id"]),
		SessionName: r["session_name"],
		Index:       atoi(r["window_index"]),
		Name:        r["window_name"],
		Active:      r["window_active"] == "1",
		Width:       atoi(r["window_width"]),
		Height:      atoi(r["window_height"]),
		Panes:       atoi(r["window_panes"]),
		Layout:      r["window_layout"],
		Zoomed:      r["window_zoomed_flag"] == "1",
	}
}

var paneFormat = format{"pane_id", "session_id", "session_name", "window_id", "window_index",
	"window_name", "pane_left", "pane_top", "pane_index", "pane_active", "pane_width", "pane_height", "pane_title", "pane_current_command",
	"pane_pid", "pane_current_path", "pane_dead", "pane_dead_status", "pane_dead_signal",
	"pane_in_mode", "history_size", "pane_pipe", PipeOption, HoldOption, "pid",
	"pane_last_prompt_time", "pane_command_running", "pane_command_status"}

func paneFrom(r map[string]string) Pane {
	p := Pane{
		ID:          PaneID(r["pane_id"]),
		SessionID:   SessionID(r["session_id"]),
		SessionName: r["session_name"],
		WindowID:    WindowID(r["window_id"]),
		WindowIndex: atoi(r["window_index"]),
		WindowName:  r["window_name"],
		Left:        atoi(r["pane_left"]),
		Top:         atoi(r["pane_top"]),
		Index:       atoi(r["pane_index"]),
		Active:      r["pane_active"] == "1",
		Width:       atoi(r["pane_width"]),
		Height:      atoi(r["pane_height"]),
		Title:       r["pane_title"],
		Command:     r["pane_current_command"],
		PID:         atoi(r["pane_pid"]),
		Cwd:         r["pane_current_path"],
		Dead:        r["pane_dead"] == "1",
		InMode:      r["pane_in_mode"] == "1",
		HistorySize: atoi(r["history_size"]),
		Piped:       r["pane_pipe"] == "1",
		PipeMark:    r[PipeOption],
		HoldMark:    r[HoldOption],
		ServerPID:   atoi(r["pid"]),
		CommandRuns: r["pane_command_running"] == "1",
	}
	if n, err := strconv.Atoi(r["pane_command_status"]); err == nil {
		p.CommandStatus = &n
	}
	p.ShellMarked = r["pane_last_prompt_time"] != "" || p.CommandRuns || p.CommandStatus != nil
	if p.Dead {
		if n, err := strconv.Atoi(r["pane_dead_signal"]); err == nil && n > 0 {
			name := SignalName(n)
			p.ExitSignal = &name
		} else if n, err := strconv.Atoi(r["pane_dead_status"]); err == nil {
			p.ExitStatus = &n
		}
	}
	return p
}

// Unreaped reports a dead pane whose status tmux has not read yet: in tmux
// 3.3a the pane can be marked dead before the server reaps the child, and
// the status then stays empty until something makes the server reap.
func (p Pane) Unreaped() bool { return p.Dead && p.ExitStatus == nil && p.ExitSignal == nil }

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// ListSessions returns every session. A server that is not running has no
// sessions, which is not an error.
func (c *Client) ListSessions(ctx context.Context) ([]Session, error) {
	rows, err := c.list(ctx, sessionFormat, "list-sessions")
	if errors.Is(err, ErrServerGone) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]Session, len(rows))
	for i, r := range rows {
		out[i] = sessionFrom(r)
	}
	return out, nil
}

// ListWindows returns the windows of session s, or of every session when s
// is empty.
func (c *Client) ListWindows(ctx context.Context, s SessionID) ([]Window, error) {
	argv := []string{"list-windows", "-a"}
	if s != "" {
		argv = []string{"list-windows", "-t", string(s)}
	}
	rows, err := c.list(ctx, windowFormat, argv...)
	if s == "" && errors.Is(err, ErrServerGone) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]Window, len(rows))
	for i, r := range rows {
		out[i] = windowFrom(r)
	}
	return out, nil
}

// A PaneScope narrows [Client.ListPanes]; the zero value means every pane.
type PaneScope struct {
	Session SessionID
	Window  WindowID
}

// ListPanes returns the panes in scope.
func (c *Client) ListPanes(ctx context.Context, scope PaneScope) ([]Pane, error) {
	argv := []string{"list-panes", "-a"}
	switch {
	case scope.Window != "":
		argv = []string{"list-panes", "-t", string(scope.Window)}
	case scope.Session != "":
		argv = []string{"list-panes", "-s", "-t", string(scope.Session)}
	}
	panes, err := c.listPanes(ctx, argv)
	if scope == (PaneScope{}) && errors.Is(err, ErrServerGone) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if scope.Window != "" && scope.Session != "" && len(panes) > 0 && panes[0].SessionID != scope.Session {
		return nil, &NotFoundError{Kind: "window", ID: string(scope.Window) + " in session " + string(scope.Session)}
	}
	return panes, nil
}

// listPanes runs a list-panes argv, making tmux reap first if a dead pane's
// status is still unknown.
func (c *Client) listPanes(ctx context.Context, argv []string) ([]Pane, error) {
	for attempt := 0; ; attempt++ {
		rows, err := c.list(ctx, paneFormat, argv...)
		if err != nil {
			return nil, err
		}
		panes := make([]Pane, len(rows))
		unreaped := false
		for i, r := range rows {
			panes[i] = paneFrom(r)
			unreaped = unreaped || panes[i].Unreaped()
		}
		if !unreaped {
			return panes, nil
		}
		if attempt == 1 {
			for i := range panes {
				if panes[i].Unreaped() {
					c.statusFromScreen(ctx, &panes[i])
				}
			}
			return panes, nil
		}
		if err := c.reap(ctx); err != nil {
			return nil, err
		}
	}
}

// deadLine is the line tmux writes at the bottom of a pane that died and
// stays open: "Pane is dead (status 3, <time>)" or "(signal 15, <time>)"
// (a signal name such as "term" where the C library has names).
var deadLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^Pane is dead \((?:status (\d+)|signal ([0-9A-Za-z]+)), `)
})

// statusFromScreen fills in a dead pane's status from tmux's own "Pane is
// dead" line, for tmux 3.2a, which has no pane_dead_signal format and
// leaves pane_dead_status empty when a signal ended the program.
func (c *Client) statusFromScreen(ctx context.Context, p *Pane) {
	lines, err := c.Capture(ctx, p.ID, CaptureOptions{})
	if err != nil {
		return
	}
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line == "" {
			continue
		}
		m := deadLine().FindStringSubmatch(line)
		switch {
		case m == nil:
		case m[1] != "":
			n, _ := strconv.Atoi(m[1])
			p.ExitStatus = &n
		default:
			name := "SIG" + strings.ToUpper(m[2])
			if n, err := strconv.Atoi(m[2]); err == nil {
				name = SignalName(n)
			}
			p.ExitSignal = &name
		}
		return
	}
}

// Reap makes the tmux server fork and wait, which also collects the status
// of any exited pane (see [Pane.Unreaped]).
func (l LiveOps) Reap(ctx context.Context) error { return l.c.reap(ctx) }

func (c *Client) reap(ctx context.Context) error {
	_, err := c.command(ctx, "run-shell", "true")
	return err
}

// Pane returns pane p.
func (c *Client) Pane(ctx context.Context, p PaneID) (Pane, error) {
	panes, err := c.listPanes(ctx, []string{"list-panes", "-t", string(p)})
	if err != nil {
		return Pane{}, err
	}
	for _, pane := range panes {
		if pane.ID == p {
			return pane, nil
		}
	}
	return Pane{}, &NotFoundError{Kind: "pane", ID: string(p)}
}

// Session returns session s.
func (c *Client) Session(ctx context.Context, s SessionID) (Session, error) {
	rows, err := c.list(ctx, sessionFormat, "list-sessions", "-f", "#{==:#{session_id},"+literalFormat(string(s))+"}")
	if err != nil {
		if errors.Is(err, ErrServerGone) {
			return Session{}, &NotFoundError{Kind: "session", ID: string(s), Err: err}
		}
		return Session{}, err
	}
	if len(rows) == 0 {
		return Session{}, &NotFoundError{Kind: "session", ID: string(s)}
	}
	return sessionFrom(rows[0]), nil
}

// Window returns window w.
func (c *Client) Window(ctx context.Context, w WindowID) (Window, error) {
	rows, err := c.list(ctx, windowFormat, "list-windows", "-a", "-f", "#{==:#{window_id},"+literalFormat(string(w))+"}")
	if err != nil {
		if errors.Is(err, ErrServerGone) {
			return Window{}, &NotFoundError{Kind: "window", ID: string(w), Err: err}
		}
		return Window{}, err
	}
	if len(rows) == 0 {
		return Window{}, &NotFoundError{Kind: "window", ID: string(w)}
	}
	return windowFrom(rows[0]), nil
}

// A Spawn describes the program of a new pane. The zero value runs the
// default shell in tmux's default directory.
type Spawn struct {
	Argv []string          // run directly, never through a shell
	Cwd  string            // start directory
	Env  map[string]string // added to the pane's environment
	// ShellMarks, for a pane with no Argv made by [Client.CreateGated],
	// is a directory of shell-mark files (bash.sh, zsh/, marks.fish)
	// that a login bash, zsh or fish is started with; "" for none.
	ShellMarks string
}

// args returns the spawn flags and trailing command for new-session,
// new-window and split-window.
func (s Spawn) args() []string {
	var a []string
	if s.Cwd != "" {
		a = append(a, "-c", literalFormat(s.Cwd))
	}
	for _, k := range sortedKeys(s.Env) {
		a = append(a, "-e", k+"="+s.Env[k])
	}
	switch len(s.Argv) {
	case 0:
		return a
	case 1:
		// tmux runs a lone argument through `sh -c`; this keeps it a
		// single argv word, byte-exact, whatever it contains.
		return append(a, "--", "/bin/sh", "-c", `exec "$0"`, s.Argv[0])
	}
	return append(append(a, "--"), s.Argv...)
}

// Created names what a new-session, new-window or split-window made.
type Created struct {
	Pane        PaneID
	Window      WindowID
	WindowIndex int
	Session     SessionID
	SessionName string
	PID         int
	ServerPID   int  // the tmux server's process id
	Piped       bool // the pane was piped by the CreationPipe it was made with

	// defaultCommand is the new pane's default-command option, for a
	// gated pane given no program ([Client.CreateGated]).
	defaultCommand string
}

var createdFormat = format{"pane_id", "window_id", "window_index", "session_id", "session_name", "pane_pid", "pid", "default-command"}

// check refuses a start directory that does not exist: tmux 3.3a would
// silently start the program in another directory instead.
func (s Spawn) check(outcome string) error {
	size := len(s.Cwd)
	for _, a := range s.Argv {
		size += len(a) + 1
	}
	if size > maxSpawnBytes {
		return fmt.Errorf("argv and cwd hold %d bytes, and tmux takes at most about %d in one command (for a long script, write it to a file and run that); %s", size, maxSpawnBytes, outcome)
	}
	if s.Cwd == "" {
		return nil
	}
	if fi, err := os.Stat(s.Cwd); err != nil || !fi.IsDir() {
		return fmt.Errorf("cwd %q is not a directory on this machine; %s", s.Cwd, outcome)
	}
	return nil
}

// nothingCreated ends a refusal of a program to start.
const nothingCreated = "nothing was created"

// maxSpawnBytes bounds a program's argv and cwd, which go to tmux as
// arguments of one command: tmux refuses a client's command beyond 16 KiB,
// and the gating shell and the command's own words take some of that.
const maxSpawnBytes = 8192

// after are commands that follow it in the same command list.
func (c *Client) create(ctx context.Context, spawn Spawn, argv []string, after ...[]string) (Created, error) {
	if err := spawn.check(nothingCreated); err != nil {
		return Created{}, err
	}
	argv = append(argv, spawn.args()...)
	spec, fieldSep, rowSep := createdFormat.layout()
	argv = append([]string{argv[0], "-P", "-F", spec}, argv[1:]...)
	var out string
	var err error
	cmds := append([][]string{argv}, after...)
	if len(spawn.Env) > 0 {
		// Environment values are often secrets: they go to tmux in a
		// private file, never on a command line that any user can read in
		// the process list.
		out, err = c.sourced(ctx, cmds...)
	} else {
		out, err = c.commands(ctx, cmds...)
	}
	if err != nil {
		return Created{}, err
	}
	rows, err := c.parsePrinted(ctx, createdFormat, out, fieldSep, rowSep)
	if err != nil {
		return Created{}, err
	}
	if len(rows) != 1 {
		return Created{}, fmt.Errorf("%s: printed %d rows, want 1", argv[0], len(rows))
	}
	r := rows[0]
	return Created{
		Pane:        PaneID(r["pane_id"]),
		Window:      WindowID(r["window_id"]),
		WindowIndex: atoi(r["window_index"]),
		Session:     SessionID(r["session_id"]),
		SessionName: r["session_name"],
		PID:         atoi(r["pane_pid"]),
		ServerPID:   atoi(r["pid"]),

		defaultCommand: r["default-command"],
	}, nil
}

// NewSessionOptions configure [Client.NewSession].
type NewSessionOptions struct {
	Name, WindowName string // tmux chooses when empty
	Width, Height    int    // 0 leaves tmux's default
	Spawn
}

// NewSession starts a detached session, starting the server if needed.
// Without a Cwd it starts in this process's working directory (tmux's own
// default depends on which client runs the command).
func (c *Client) NewSession(ctx context.Context, o NewSessionOptions) (Created, error) {
	if o.Cwd == "" {
		if wd, err := os.Getwd(); err == nil {
			o.Cwd = wd
		}
	}
	argv := []string{"new-session", "-d"}
	if o.Name != "" {
		argv = append(argv, "-s", literalFormat(o.Name))
	}
	if o.WindowName != "" {
		argv = append(argv, "-n", literalFormat(o.WindowName))
	}
	if o.Width > 0 {
		argv = append(argv, "-x", strconv.Itoa(o.Width))
	}
	if o.Height > 0 {
		argv = append(argv, "-y", strconv.Itoa(o.Height))
	}
	created, err := c.create(ctx, o.Spawn, argv)
	if err == nil && !c.atLeast(ctx, 3, 3) {
		// tmux 3.2a gives a detached session's window the default size
		// whatever -x and -y say, and counts the status line in it;
		// resize-window makes it what was asked, or default-size as later
		// versions take it.
		w, h := o.Width, o.Height
		if w <= 0 || h <= 0 {
			out, _ := c.command(ctx, "show-options", "-gv", "default-size")
			dw, dh, _ := strings.Cut(strings.TrimSpace(out), "x")
			if w <= 0 {
				w, _ = strconv.Atoi(dw)
			}
			if h <= 0 {
				h, _ = strconv.Atoi(dh)
			}
		}
		err = c.ResizeWindow(ctx, created.Window, w, h)
	}
	return created, err
}

// NewWindowOptions configure [Client.NewWindow].
type NewWindowOptions struct {
	Name          string // tmux names it after its program when empty
	Select        bool   // make it the session's current window
	Width, Height int    // resize the new window (only it) when not 0
	Spawn

	pipe CreationPipe // opened as the window is made (StartGated's)
}

// NewWindow adds a window to session s at the next free index.
func (c *Client) NewWindow(ctx context.Context, s SessionID, o NewWindowOptions) (Created, error) {
	argv := []string{"new-window", "-t", string(s) + ":"}
	var after [][]string
	if o.pipe.usable() {
		// After the session's last window, which the commands after it
		// then name ({end}): tmux runs one client's list with no other
		// client's command in between.
		end := string(s) + ":{end}"
		argv = []string{"new-window", "-a", "-t", end}
		after = o.pipe.commands(end)
	}
	if !o.Select {
		argv = append(argv, "-d")
	}
	if o.Name != "" {
		argv = append(argv, "-n", literalFormat(o.Name))
	}
	created, err := c.create(ctx, o.Spawn, argv, after...)
	if err != nil {
		return Created{}, err
	}
	created.Piped = len(after) > 0
	if err := c.ResizeWindow(ctx, created.Window, o.Width, o.Height); err != nil {
		c.KillWindow(context.WithoutCancel(ctx), created.Window)
		return Created{}, err
	}
	return created, nil
}

// Direction places a new pane relative to the one split.
type Direction string

const (
	Below Direction = "below"
	Right Direction = "right"
	Above Direction = "above"
	Left  Direction = "left"
)

// SplitOptions configure [Client.Split].
type SplitOptions struct {
	Direction Direction // Below when empty
	Percent   int       // size of the new pane; 0 means half
	Cells     int       // or: its size in rows (below, above) or columns (right, left)
	Select    bool      // make the new pane active
	Spawn
}

// Split splits pane p and starts a program in the new pane.
func (c *Client) Split(ctx context.Context, p PaneID, o SplitOptions) (Created, error) {
	argv := []string{"split-window", "-t", string(p)}
	switch o.Direction {
	case Right:
		argv = append(argv, "-h")
	case Left:
		argv = append(argv, "-h", "-b")
	case Above:
		argv = append(argv, "-v", "-b")
	case Below, "":
		argv = append(argv, "-v")
	default:
		return Created{}, fmt.Errorf("split direction %q: want below, right, above or left", o.Direction)
	}
	if !o.Select {
		argv = append(argv, "-d")
	}
	if o.Percent > 0 {
		argv = append(argv, "-l", strconv.Itoa(o.Percent)+"%")
	} else if o.Cells > 0 {
		argv = append(argv, "-l", strconv.Itoa(o.Cells))
	}
	return c.create(ctx, o.Spawn, argv)
}

// KillSession kills session s and everything in it.
func (c *Client) KillSession(ctx context.Context, s SessionID) error {
	_, err := c.command(ctx, "kill-session", "-t", string(s))
	return err
}

// KillWindow kills window w and its panes.
func (c *Client) KillWindow(ctx context.Context, w WindowID) error {
	_, err := c.command(ctx, "kill-window", "-t", string(w))
	return err
}

// KillPane kills pane p; its window closes if it was the last pane.
func (c *Client) KillPane(ctx context.Context, p PaneID) error {
	_, err := c.command(ctx, "kill-pane", "-t", string(p))
	return err
}
