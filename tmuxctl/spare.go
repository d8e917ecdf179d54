package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
)

// A Spare is a program pane made before its program is known, in a new
// window of [ProgramSession], as [Client.StartGated] would make it with an
// acking gate: its shell waits for [Spare.Run] to say what to run, then
// behaves as the acking shell does (exit marker, ack, same death). tmux
// built with utempter spends most of a new pane's time in a helper it
// waits for; a spare made ahead takes that off a later call.
//
// Whatever ends this process, the spare's shell does not wait forever:
// this process holds the writing end of its FIFO from before the pane
// exists, and the shell holds only a reading end, so this process's end
// is the shell's end of file (it exits 126, and its pane closes).
type Spare struct {
	Created Created
	Gate    Gate // acking, with the nonce the spare was made with

	mu     sync.Mutex
	keeper *os.File // the FIFO's writing end (and reading, so opening never blocks)
}

// MakeSpare makes a spare pane with nonce for its exit marker, opening
// pipe as the window is made (as [Placement.Pipe]).
func (c *Client) MakeSpare(ctx context.Context, pipe CreationPipe, nonce string) (*Spare, error) {
	gate, err := NewGate(true, nonce)
	if err != nil {
		return nil, err
	}
	// O_RDWR never blocks on a FIFO (Linux, macOS, FreeBSD), and keeps
	// what is written there until the shell reads it.
	keeper, err := os.OpenFile(gate.files.path(gateGo), os.O_RDWR, 0)
	if err != nil {
		gate.Abandon()
		return nil, fmt.Errorf("making a spare pane: %w", err)
	}
	gate.files.mu.Lock()
	gate.files.released[gateGo] = true // written through keeper, never by release
	gate.files.mu.Unlock()
	argv := []string{"/bin/sh", "-c", spareShim, RunnerName, gate.files.path(gateGo), gate.AckChannel, nonce}
	created, err := c.programWindow(ctx, NewWindowOptions{Spawn: Spawn{Argv: argv}, pipe: pipe})
	if err != nil {
		c.removeMade(ctx, created.Pane)
		keeper.Close()
		gate.Abandon()
		return nil, err
	}
	return &Spare{Created: created, Gate: gate, keeper: keeper}, nil
}

// maxSparePayload bounds what [Spare.Run] writes: less than any of these
// systems' pipe buffers (16 KiB and more), so the write never waits for
// the shell, which may be gone.
const maxSparePayload = 4096

// SpareFits reports whether s can run in a spare as it would in a pane
// of its own: a cwd that is absolute (tmux resolves others its own way),
// environment names the shell can export, a payload that fits.
func SpareFits(s Spawn) bool {
	_, ok := sparePayload(s)
	return ok
}

// Run gives s to the spare's shell, which then runs it: the caller has
// watched the pane's output from its start, as with [Client.StartGated].
// It writes to the FIFO only (no tmux command). A spare runs once.
func (sp *Spare) Run(s Spawn) error {
	payload, ok := sparePayload(s)
	if !ok {
		return errors.New("a spare pane cannot run this program")
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.keeper == nil {
		return errors.New("the spare pane was given up")
	}
	_, err := sp.keeper.Write(payload)
	return err
}

// Close lets go of the FIFO: a shell still waiting ends (126), one that
// read its program is unaffected. The caller kills the pane and abandons
// the gate as it would a gated pane's.
func (sp *Spare) Close() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.keeper != nil {
		sp.keeper.Close()
		sp.keeper = nil
	}
}

// sparePayload is s as lines the spare's shell evaluates, ending in a
// line "." (which no other line is): the arguments, directory and
// environment, each single-quoted, with a newline inside one written as
// $nl so that every line is whole; then g=1, which the shell checks.
func sparePayload(s Spawn) ([]byte, bool) {
	if len(s.Argv) == 0 || s.ShellMarks != "" || s.Cwd != "" && !strings.HasPrefix(s.Cwd, "/") {
		return nil, false
	}
	var b strings.Builder
	b.WriteString("set --")
	for _, a := range s.Argv {
		b.WriteByte(' ')
		b.WriteString(shellQuote(a))
	}
	b.WriteByte('\n')
	if s.Cwd != "" {
		b.WriteString("cd -- " + shellQuote(s.Cwd) + " 2>/dev/null || exit 126\n")
	}
	for _, k := range sortedKeys(s.Env) {
		if !shellName(k) {
			return nil, false
		}
		b.WriteString("export " + k + "=" + shellQuote(s.Env[k]) + "\n")
	}
	b.WriteString("g=1\n.\n")
	if b.Len() > maxSparePayload || strings.IndexByte(b.String(), 0) >= 0 {
		return nil, false
	}
	return []byte(b.String()), true
}

// shellQuote single-quotes a for sh, a newline as '"$nl"'.
func shellQuote(a string) string {
	a = strings.ReplaceAll(a, `'`, `'\''`)
	a = strings.ReplaceAll(a, "\n", `'"$nl"'`)
	return "'" + a + "'"
}

// shellName reports whether k is a name sh can export.
func shellName(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c != '_' && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return k != ""
}

// spareShim is the spare's shell: $0 is [RunnerName], $1 the FIFO, $2 the
// ack FIFO, $3 the nonce. It opens the FIFO read-write (which never
// blocks), then read-only, then drops the read-write end: so it holds no
// writing end, and ends at end of file when this process does. It reads
// lines up to "." and evaluates them only when the "." came, and runs the
// program only if they set g=1; then it is [ackShim].
var spareShim = `exec 3<>"$1" 4<"$1" 3>&-
ack=$2 nonce=$3 ok= g= p= l= nl='
'
while IFS= read -r l <&4; do
	[ "$l" = . ] && { ok=1; break; }
	p=$p$l$nl
done
exec 4<&-
[ "$ok" = 1 ] || exit 126
eval "$p"
[ "$g" = 1 ] || exit 126
unset ok g p l nl
` + ackTail
