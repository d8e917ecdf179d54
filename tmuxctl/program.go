package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// ProgramSession is the session where programs go that are given no
// other place: a new window each. tmux 3.3a crashes (measured here, in a
// few runs out of four) when control clients attach and detach quickly,
// and a session per program would attach and detach one per program; one
// long-lived session keeps one long-lived control client.
const ProgramSession = "tmux-mcp"

// A Placement says where [Client.StartGated] puts a new program's pane.
// The zero value means a new window in [ProgramSession].
type Placement struct {
	SessionName string // a new window in the session of this name, created if missing
	Split       PaneID // or: split this pane
	WindowName  string // name of the new window or session's window
	// Width and Height (0: tmux's choice) size the new window, which tmux
	// then keeps at that size. A split shares an existing window, whose
	// size is not this call's to change: they must be 0 with Split.
	Width, Height int
	// Pipe, if set, is opened as a new window in an existing session is
	// made ([Created.Piped] says it was); a split or a new session is made
	// without it, for the caller to pipe afterwards.
	Pipe CreationPipe
}

// A Gate is how [Client.StartGated] runs the program once started. Make
// one with [NewGate].
type Gate struct {
	// Ack keeps the pane's shell alive after the program exits, until the
	// program's output has been read to the end: the shell prints an exit
	// marker (after everything the program printed) and waits until
	// [Gate.Acknowledge] is called, which the piped stream does when it
	// reads the marker (or the pane is killed, which [Gate.Abandon] then
	// follows). tmux 3.3a otherwise drops output still in the kernel's tty
	// buffers when the pane's process exits (measured here: the tail of
	// about one 20 KiB burst in twenty). The pane's pid is then the
	// shell's, and the shell ends the way the program did (same status, or
	// the same signal: see [GatedExit]). Without Ack the shell execs the
	// program, which keeps its pid.
	Ack bool
	// AckChannel names the FIFO the shell waits on after the exit marker;
	// it is set (by NewGate) exactly when Ack is.
	AckChannel string
	Nonce      string

	files *gateFiles
}

// NewGate returns a gate for [Client.StartGated]: ack as [Gate.Ack],
// nonce for the exit marker. Its FIFOs live in a private directory that
// goes once the program was started and acknowledged, or abandoned.
func NewGate(ack bool, nonce string) (Gate, error) {
	names := []string{gateGo}
	if ack {
		names = append(names, gateAck)
	}
	files, err := newGateFiles(names...)
	if err != nil {
		return Gate{}, fmt.Errorf("making the gate of a program: %w", err)
	}
	g := Gate{Ack: ack, Nonce: nonce, files: files}
	if ack {
		g.AckChannel = files.path(gateAck)
	}
	return g, nil
}

// Acknowledge lets the shell of an acking gate end, once the program's exit
// marker has been read. It waits for the shell to be listening until ctx
// ends; a gate that is not acking, or already acknowledged, returns nil.
func (g Gate) Acknowledge(ctx context.Context) error {
	if !g.Ack || g.files == nil {
		return nil
	}
	return g.files.release(ctx, gateAck, []byte("1\n"))
}

// Abandon gives up whatever of g was not released yet (for a pane that
// was killed, or never started) and removes its FIFOs.
func (g Gate) Abandon() {
	if g.files != nil {
		g.files.abandon()
	}
}

// GatedExit is how the program of an acking gate ended, from the status
// its exit marker carries, exactly as tmux will report the shell's end:
// the shell re-raises a signal that ends a process by default, so a
// status of 128+n for such a signal n is that signal.
func GatedExit(status int) (exitStatus *int, signal *string) {
	if n := status - 128; reraised[n] {
		name := SignalName(n)
		return nil, &name
	}
	return &status, nil
}

// reraised are the signals the acking shell re-raises: those whose
// default action ends the process.
var reraised = map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true, 10: true,
	11: true, 12: true, 13: true, 14: true, 15: true, 16: true, 24: true, 25: true, 26: true, 27: true, 29: true, 30: true, 31: true}

// StartGated creates a pane for program s.Argv that does not run it yet:
// a shell in the pane waits on the gate's FIFO, then runs the program. The
// caller subscribes to the pane's output and holds its exit, then calls
// the returned start. If start is never called, the caller must kill the
// pane and abandon the gate (a zero Gate: call start with an ended
// context, which abandons it).
func (c *Client) StartGated(ctx context.Context, where Placement, s Spawn, gate Gate) (Created, func(context.Context) error, error) {
	if len(s.Argv) == 0 {
		return Created{}, nil, errors.New("starting a program: argv is empty")
	}
	if err := s.check(nothingCreated); err != nil {
		return Created{}, nil, err
	}
	if gate.files == nil {
		if gate.Ack {
			return Created{}, nil, errors.New("starting a program: an acking gate must come from NewGate")
		}
		var err error
		if gate, err = NewGate(false, gate.Nonce); err != nil {
			return Created{}, nil, err
		}
	}
	files := gate.files
	fail := func(err error) (Created, func(context.Context) error, error) {
		files.abandon()
		return Created{}, nil, err
	}
	gated := s
	if where.Width > 0 || where.Height > 0 {
		// tmux applies a pane's terminal resize at most every 250 ms
		// (3.2a and later), so a window resized just after another resize
		// can still show its program the old size: it waits until the
		// terminal has the size asked for (two seconds at most).
		rows, cols := "*", "*"
		if where.Height > 0 {
			rows = strconv.Itoa(where.Height)
		}
		if where.Width > 0 {
			cols = strconv.Itoa(where.Width)
		}
		gated.Argv = append([]string{"/bin/sh", "-c", sizeWait, "sh", rows + " " + cols}, s.Argv...)
	}
	if gate.Ack {
		gated.Argv = append([]string{"/bin/sh", "-c", ackShim, RunnerName, files.path(gateGo), files.path(gateAck), gate.Nonce}, gated.Argv...)
	} else {
		gated.Argv = append([]string{"/bin/sh", "-c", execShim, RunnerName, files.path(gateGo)}, gated.Argv...)
	}

	if where.Split != "" && (where.Width > 0 || where.Height > 0) {
		return fail(errors.New("starting a program: a split shares an existing window, so it takes no width or height"))
	}
	if err := c.checkStartable(ctx, where, s); err != nil {
		return fail(err)
	}
	var created Created
	var err error
	switch {
	case where.Split != "":
		created, err = c.Split(ctx, where.Split, SplitOptions{Spawn: gated})
	case where.SessionName != "":
		var sess Session
		sess, err = c.sessionByName(ctx, where.SessionName)
		var nf *NotFoundError
		if errors.As(err, &nf) {
			created, err = c.NewSession(ctx, NewSessionOptions{Name: where.SessionName, WindowName: where.WindowName, Spawn: gated})
			break
		}
		if err == nil {
			created, err = c.NewWindow(ctx, sess.ID, NewWindowOptions{Name: where.WindowName, Spawn: gated, pipe: where.Pipe})
		}
	default:
		created, err = c.programWindow(ctx, NewWindowOptions{Name: where.WindowName, Spawn: gated, pipe: where.Pipe})
	}
	if err == nil && (where.Width > 0 || where.Height > 0) {
		// The program waits at the gate, so it starts at this size.
		if err = c.ResizeWindow(ctx, created.Window, where.Width, where.Height); err != nil {
			c.KillPane(context.WithoutCancel(ctx), created.Pane)
		}
	}
	if err != nil {
		return fail(err)
	}
	start := func(ctx context.Context) error { return files.release(ctx, gateGo, []byte("1\n")) }
	return created, start, nil
}

// CreateGated makes a pane with create (new-session, new-window or
// split-window with their options) for program s.Argv — or, when s.Argv
// is empty, for what tmux would have run: default-command through
// default-shell, or default-shell as a login shell — that does not run
// yet: a shell in the pane waits on a FIFO first, as in
// [Client.StartGated]. Once started, the shell prints a [frame.Exec] marker
// with nonce just before it execs a program it found (so a program not
// found or not executable is known by its exit with no marker). The
// shell execs the program, which keeps the pane's pid. If start is never
// called, the caller must remove what create made and call start with an
// ended context, which gives the gate up.
//
// A program that is not found, or cannot run, on the PATH the pane would
// have (the environment of session in, "" for a new session's) is a
// [*ProgramError] before anything is made.
func (c *Client) CreateGated(ctx context.Context, in SessionID, s Spawn, nonce string, create func(context.Context, Spawn) (Created, error)) (Created, func(context.Context) error, error) {
	if err := s.check(nothingCreated); err != nil {
		return Created{}, nil, err
	}
	if len(s.Argv) > 0 {
		if err := c.CheckProgram(ctx, in, s); err != nil {
			return Created{}, nil, err
		}
	}
	files, err := newGateFiles(gateGo)
	if err != nil {
		return Created{}, nil, fmt.Errorf("making the gate of a program: %w", err)
	}
	gated := s
	gated.Argv = append([]string{"/bin/sh", "-c", createShim, RunnerName, files.path(gateGo), nonce, s.ShellMarks}, s.Argv...)
	gated.ShellMarks = ""
	created, err := create(ctx, gated)
	if err != nil {
		// tmux may have made the pane before the error (a cancelled call,
		// a failed resize): its shim would wait for a start that never
		// comes, so remove it.
		c.removeMade(ctx, created.Pane)
		files.abandon()
		return Created{}, nil, err
	}
	// The shell gets tmux's default-command (as the new pane's session
	// has it, read by the command that made the pane) through the gate,
	// so that it never has to ask tmux itself.
	payload := []byte("1\n")
	if len(s.Argv) == 0 {
		payload = append(payload, created.defaultCommand...)
	}
	start := func(ctx context.Context) error { return files.release(ctx, gateGo, payload) }
	return created, start, nil
}

// removeMade kills pane p, made by a command list that then failed ("":
// none was made), with a bound of its own: ctx may be what ended.
func (c *Client) removeMade(ctx context.Context, p PaneID) {
	if p == "" {
		return
	}
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	_ = c.KillPane(kctx, p)
}

// createShim is the gating shell of [Client.CreateGated]: $0 is
// [RunnerName], $1 the gate's FIFO, $2 the nonce, $3 [Spawn.ShellMarks]
// (or ""), then the program's argv (none: tmux's default, worked out as
// tmux's spawn.c does, except that the login shell is asked for with -l
// rather than a "-" before its name, which sh cannot set). The gate holds
// "1", a newline and tmux's default-command. tmux sets SHELL in the pane
// to default-shell. The gate is read by the shell itself (a redirected
// group, no child process), so that the pane's foreground process stays
// sh until the program runs.
//
// With shell marks, a login bash, zsh or fish is started the way terminal
// shell integrations start one (docs/shell-marks.md): bash with
// --init-file, which reads the login files itself (TMUX_MCP_LOGIN says
// so); zsh with ZDOTDIR pointing at files that read the user's own
// (TMUX_MCP_ZDOTDIR keeps the user's ZDOTDIR, TMUX_MCP_ZDOTDIR_SET whether
// there was one); fish with an init command, which runs after its config.
var createShim = `nonce=$2 m=$3 g= c= l= nl='
'
{ IFS= read -r g; while IFS= read -r l; do c=$c$l$nl; done; c=$c$l; } 2>/dev/null <"$1"
[ "$g" = 1 ] || exit 126
shift 3
if [ $# -eq 0 ]; then
	if [ -n "$c" ]; then set -- "$SHELL" -c "$c"
	elif [ -n "$m" ] && [ -r "$m/bash.sh" ]; then
		case ${SHELL##*/} in
		bash) TMUX_MCP_LOGIN=1; export TMUX_MCP_LOGIN; set -- "$SHELL" --init-file "$m/bash.sh";;
		zsh) TMUX_MCP_ZDOTDIR=${ZDOTDIR-} TMUX_MCP_ZDOTDIR_SET=${ZDOTDIR+1} ZDOTDIR=$m/zsh
			export TMUX_MCP_ZDOTDIR TMUX_MCP_ZDOTDIR_SET ZDOTDIR; set -- "$SHELL" -l;;
		fish) TMUX_MCP_MARKS=$m; export TMUX_MCP_MARKS
			set -- "$SHELL" -l -C 'source "$TMUX_MCP_MARKS/marks.fish"';;
		*) set -- "$SHELL" -l;;
		esac
	else set -- "$SHELL" -l; fi
fi
unset g c l nl m
case $1 in
*/*) [ -f "$1" ] && [ -x "$1" ];;
*) command -v -- "$1" >/dev/null 2>&1;;
esac && printf '` + frame.Printf("%s", frame.Exec) + `' "$nonce"
exec "$@"`

// SessionNamed finds the session whose name is exactly name (as given to
// tmux: a name tmux stored changed, such as "a.b" as "a_b", matches too).
func (c *Client) SessionNamed(ctx context.Context, name string) (Session, error) {
	return c.sessionByName(ctx, name)
}

// sessionByName finds the session whose name is exactly name.
func (c *Client) sessionByName(ctx context.Context, name string) (Session, error) {
	sessions, err := c.ListSessions(ctx)
	if err != nil {
		return Session{}, err
	}
	stored := storedSessionName(name)
	for _, s := range sessions {
		if s.Name == name || s.Name == stored {
			return s, nil
		}
	}
	return Session{}, &NotFoundError{Kind: "session", ID: name}
}

// storedSessionName is name as tmux stores a session name (3.2a–3.6:
// session_check_name): ":" and "." become "_", and a backslash, control
// characters and bytes that are not UTF-8 are written C-style or in octal
// (strvis with VIS_OCTAL|VIS_CSTYLE|VIS_TAB|VIS_NL). tmux 3.7 keeps ":" and
// "." and refuses the rest, so there a name is stored as it is.
func storedSessionName(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		c := name[i]
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, "\\%03o", c)
		case size > 1:
			b.WriteString(name[i : i+size])
		case c == ':' || c == '.':
			b.WriteByte('_')
		case c == '\\':
			b.WriteString(`\\`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		case cStyle[c] != 0:
			b.WriteByte('\\')
			b.WriteByte(cStyle[c])
		default:
			fmt.Fprintf(&b, "\\%03o", c)
		}
		i += size
	}
	return b.String()
}

// cStyle are the C escapes strvis uses with VIS_CSTYLE.
var cStyle = [256]byte{'\n': 'n', '\t': 't', '\r': 'r', '\b': 'b', '\a': 'a', '\v': 'v', '\f': 'f'}

// programWindow makes a new window in [ProgramSession], making the
// session first if needed. The window is asked for by the session's exact
// name, so no lookup precedes it (and a session id of another server,
// restarted meanwhile, cannot be hit).
func (c *Client) programWindow(ctx context.Context, o NewWindowOptions) (Created, error) {
	created, err := c.NewWindow(ctx, programTarget, o)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Kind != "session" {
		return created, err
	}
	sess, err := c.programSession(ctx)
	if err != nil {
		return Created{}, err
	}
	return c.NewWindow(ctx, sess.ID, o)
}

// programTarget is [ProgramSession] as an exact-name target.
const programTarget SessionID = "=" + ProgramSession

// programSession returns [ProgramSession], creating it if needed. Its
// first window only says what the session is for and stays, so the
// session outlives every program in it.
func (c *Client) programSession(ctx context.Context) (Session, error) {
	for attempt := 0; ; attempt++ {
		s, err := c.sessionByName(ctx, ProgramSession)
		var nf *NotFoundError
		if !errors.As(err, &nf) || attempt > 0 {
			return s, err
		}
		_, err = c.NewSession(ctx, NewSessionOptions{Name: ProgramSession, WindowName: "about", Spawn: Spawn{Argv: []string{
			"sh", "-c", `printf 'tmux-mcp starts programs in new windows of this session.\n'; exec sleep infinity`}}})
		var ce *CommandError
		if err != nil && !errors.As(err, &ce) { // "duplicate session": another call made it
			return Session{}, err
		}
	}
}

// sizeWait waits until the terminal's "rows cols" match the pattern $1
// (a "*" for a dimension not asked for), two seconds at most, then runs
// the rest of its arguments in its place.
const sizeWait = `p=$1; shift; i=0
while [ "$i" -lt 200 ]; do
	case "$(stty size 2>/dev/null)" in $p) break;; esac
	sleep 0.01; i=$((i+1))
done
exec "$@"`

// execShim is the gating shell of [Client.StartGated] without an ack: $0
// is [RunnerName], $1 the gate's FIFO, then the program's argv, which it
// execs once started.
const execShim = `g=; IFS= read -r g 2>/dev/null <"$1"; [ "$g" = 1 ] || exit 126; shift; unset g; exec "$@"`

// ackShim (the nonce goes in as the format's %s) runs "$@" once its gate
// ($1) opens, prints the exit marker with nonce $3, waits on the ack FIFO
// ($2) — ten seconds at most, so a lost ack (this server gone) cannot
// keep the pane — then ends as the program did: a status of 128+n for a
// signal n that ends a process by default is re-raised, so tmux sees the
// same death (a program that exits 128+n by choice reads as that signal:
// sh cannot tell the two apart; [GatedExit] reads the marker the same way).
// The shell's own stderr goes to /dev/null while the program, in a
// subshell that restores it, keeps the terminal: so a notice such as
// dash's "Killed" is not taken for the program's output.
var ackShim = `g=; IFS= read -r g 2>/dev/null <"$1"; [ "$g" = 1 ] || exit 126
ack=$2 nonce=$3
shift 3
unset g
` + ackTail

// ackTail is the part of [ackShim] after the gate, which the spare's shell
// shares: ack and nonce set, the program in "$@".
var ackTail = `exec 3>&2 2>/dev/null
( exec 2>&3 3>&-; exec "$@" )
s=$?
printf '` + frame.Printf("%s", frame.Exit) + `' "$nonce" "$s"
read -r g <"$ack" >/dev/null 2>&1 &
w=$!
(sleep 10; kill "$w") </dev/null >/dev/null 2>&1 &
wait "$w"
sig=$((s - 128))
case $sig in
` + reraisedCases + `)
	trap - "$sig" 2>/dev/null
	kill -"$sig" $$ 2>/dev/null;;
esac
exit "$s"`

// reraisedCases is [reraised] as a shell case pattern.
const reraisedCases = "1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|24|25|26|27|29|30|31"
