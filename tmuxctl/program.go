package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
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
}

// A Gate is how [Client.StartGated] runs the program once started.
type Gate struct {
	// Ack keeps the pane's shell alive after the program exits, until the
	// program's output has been read to the end: the shell prints an exit
	// marker (after everything the program printed) and waits for the
	// AckChannel, which the piped stream signals when it reads the marker.
	// tmux 3.3a otherwise drops output still in the kernel's tty buffers
	// when the pane's process exits (measured here: the tail of about one
	// 20 KiB burst in twenty). The pane's pid is then the shell's, and the
	// shell ends the way the program did (same status, or the same signal).
	// Without Ack the shell execs the program, which keeps its pid.
	Ack        bool
	AckChannel string
	Nonce      string
}

// StartGated creates a pane for program s.Argv that does not run it yet:
// a shell in the pane waits on a tmux channel, then runs the program. The
// caller subscribes to the pane's output and holds its exit, then calls
// the returned start. If start is never called, the caller must kill the
// pane.
func (c *Client) StartGated(ctx context.Context, where Placement, s Spawn, gate Gate) (Created, func(context.Context) error, error) {
	if len(s.Argv) == 0 {
		return Created{}, nil, errors.New("starting a program: argv is empty")
	}
	if err := s.check(); err != nil {
		return Created{}, nil, err
	}
	bin, err := exec.LookPath(c.cfg.Binary)
	if err != nil {
		return Created{}, nil, fmt.Errorf("finding tmux for the pane: %w", err)
	}
	channel := "tmux-mcp-go-" + Nonce(8)
	// The shim names the socket itself rather than trusting $TMUX, which
	// the caller's env may have replaced.
	sock := c.SocketPath()
	gated := s
	if gate.Ack {
		gated.Argv = append([]string{"/bin/sh", "-c", ackShim, bin, sock, channel, gate.AckChannel, gate.Nonce}, s.Argv...)
	} else {
		gated.Argv = append([]string{"/bin/sh", "-c", `"$0" -S "$1" wait-for "$2" || exit 126; shift 2; exec "$@"`, bin, sock, channel}, s.Argv...)
	}

	var created Created
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
			created, err = c.NewWindow(ctx, sess.ID, NewWindowOptions{Name: where.WindowName, Spawn: gated})
		}
	default:
		var sess Session
		if sess, err = c.programSession(ctx); err == nil {
			created, err = c.NewWindow(ctx, sess.ID, NewWindowOptions{Name: where.WindowName, Spawn: gated})
		}
	}
	if err != nil {
		return Created{}, nil, err
	}
	start := func(ctx context.Context) error { return c.Signal(ctx, channel) }
	return created, start, nil
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

// ackShim (the nonce goes in as the format's %s) runs "$@" after the start channel ($2) of the server on socket
// $1, prints the exit marker with nonce $4, waits for the ack channel ($3) — ten seconds at most, so
// a lost ack (this server gone) cannot keep the pane — then ends as the program
// did: a status of 128+n for a signal n that ends a process by default is
// re-raised, so tmux sees the same death (a program that exits 128+n by
// choice reads as that signal: sh cannot tell the two apart). The shell's own stderr goes to /dev/null while the
// program, in a subshell that restores it, keeps the terminal: so a notice
// such as dash's "Killed" is not taken for the program's output.
var ackShim = `"$0" -S "$1" wait-for "$2" || exit 126
sock=$1 ack=$3 nonce=$4
shift 4
exec 3>&2 2>/dev/null
( exec 2>&3 3>&-; exec "$@" )
s=$?
printf '` + frame.Printf("%s", frame.Exit) + `' "$nonce" "$s"
"$0" -S "$sock" wait-for "$ack" </dev/null >/dev/null 2>&1 &
w=$!
(sleep 10; kill "$w") </dev/null >/dev/null 2>&1 &
wait "$w"
sig=$((s - 128))
case $sig in
1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|24|25|26|27|29|30|31)
	trap - "$sig" 2>/dev/null
	kill -"$sig" $$ 2>/dev/null;;
esac
exit "$s"`
