package tmuxctl

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
)

// LiveOps are the operations only the live layer (tmuxctl/live) performs:
// they leave marks of tmux-mcp in tmux (a pane's pipe and its mark, a
// held pane's remain-on-exit and its record, the pane-died hook entry)
// and clean them up, and a few queries only that work needs. They run on
// the Client they came from.
type LiveOps struct{ c *Client }

// LiveOps returns c's live-layer operations. Its key is of a type only
// packages under tmuxctl/ can name (tmuxctl/internal/livekey), so every
// other package has Client's operations alone and cannot touch what the
// live layer owns in tmux.
func (c *Client) LiveOps(livekey.Key) LiveOps { return LiveOps{c} }

// Binary is the tmux executable the client runs, for a tap that talks
// to the same server.
func (l LiveOps) Binary() string { return l.c.cfg.Binary }

// Pane user options that record, in tmux itself, what tmux-mcp changed in
// a pane, so that any later instance can undo it if the one that made the
// change died without cleaning up (SIGKILL, a crash, a lost machine).
const (
	// PipeOption marks a pane whose pipe-pane is tmux-mcp's. Its value is
	// the stream's mark ("<pid>.<id>"), then ".<relay pid>" once known.
	PipeOption = "@tmux-mcp-pipe"
	// HoldOption marks a pane held open for its exit status. Its value is
	// the hold's mark ("<pid>.<id>"), a space, and the pane's own
	// remain-on-exit before the hold ("-" when it had none of its own).
	HoldOption = "@tmux-mcp-hold"
	// CoHoldOption lists, each after a space, the marks of the other
	// instances that wait on a held pane. The hold's maker, done, hands
	// the hold (and its record) to the first of them that still runs
	// rather than put the pane's own remain-on-exit back under them.
	CoHoldOption = "@tmux-mcp-hold-also"
)

// A PipeTakenError means a pane already has a pipe-pane that is not this
// stream's: a person's logging pipe, or another tmux-mcp's stream.
type PipeTakenError struct {
	Pane PaneID
	Mark string // the pane's PipeOption, if the pipe is another tmux-mcp's
}

func (e *PipeTakenError) Error() string {
	if e.Mark != "" {
		pid, _, _ := strings.Cut(e.Mark, ".")
		return fmt.Sprintf("pane %s is already watched by another tmux-mcp (pid %s) through its pipe-pane; tmux allows one pipe per pane", e.Pane, pid)
	}
	return fmt.Sprintf("pane %s already has a pipe-pane of someone else's (for example a logging pipe); tmux allows one pipe per pane and tmux-mcp never replaces it — close it with `tmux pipe-pane -t %s` to let tmux-mcp watch the pane", e.Pane, e.Pane)
}

// OpenPipe pipes the output of pane p (pipe-pane -O) into the shell
// command relay and marks the pipe as mark — only if the pane is alive and
// has no pipe yet. The check and the opening are one tmux command list, so
// an existing pipe is never closed: pipe-pane always closes the old pipe
// first, and its -o flag would then open nothing. The pane is read only
// when the pipe is not opened (if-shell's other branch): one command.
//
// opened is false when the pane is dead (nothing to pipe) or already had
// a pipe ([PipeTakenError]); pane is then the pane as it is, and when
// opened only its ID is set.
func (l LiveOps) OpenPipe(ctx context.Context, p PaneID, relay, mark string) (pane Pane, opened bool, err error) {
	target := string(p)
	// The mark first: should it fail, tmux runs nothing after it in the
	// list, so no pipe is left unmarked, and the list can run again.
	open := quoteCommands(
		[]string{"set-option", "-p", "-t", target, PipeOption, mark},
		[]string{"pipe-pane", "-O", "-t", target, expandedLiterally(relay)},
	)
	for attempt := 1; ; attempt++ {
		pane, opened, err = l.ifElseRead(ctx, p, "#{?pane_pipe,0,#{?pane_dead,0,1}}", open)
		if !expansionGaveUp(err) || attempt == 3 {
			break
		}
	}
	switch {
	case err != nil || opened:
		return pane, opened, err
	case pane.PipeMark == mark:
		return pane, true, nil
	case pane.Piped:
		return pane, false, &PipeTakenError{Pane: p, Mark: pane.PipeMark}
	}
	return pane, false, nil
}

// expansionGaveUp reports whether err is tmux refusing an option name
// that came out empty. No name tmux-mcp sends is empty, but tmux 3.7
// gives up on a format expansion (an option's name is one) that takes over
// 100 ms of wall time, which a server starved of CPU can reach.
func expansionGaveUp(err error) bool {
	var ce *CommandError
	return errors.As(err, &ce) && (ce.Message == "ambiguous option:" || ce.Message == "invalid option:")
}

// ifElseRead runs then (a command list as quoteCommands writes it) if
// the format cond is true for pane p, and otherwise reads the pane, in
// one command: ran is true when then ran (pane has only its ID), else
// pane is the pane as it is.
func (l LiveOps) ifElseRead(ctx context.Context, p PaneID, cond, then string) (pane Pane, ran bool, err error) {
	target := string(p)
	spec, fieldSep, rowSep := paneFormat.layout()
	out, err := l.c.command(ctx, "if-shell", "-F", "-t", target, cond, then,
		quoteCommands([]string{"list-panes", "-F", spec, "-t", target}))
	if err != nil {
		return Pane{}, false, err
	}
	if out == "" {
		// then ran and printed nothing: a missing pane fails the commands
		// that target it (if-shell itself runs with no pane).
		return Pane{ID: p}, true, nil
	}
	rows, err := l.c.parsePrinted(ctx, paneFormat, out, fieldSep, rowSep)
	if err != nil {
		return Pane{}, false, err
	}
	for _, r := range rows {
		if pane := paneFrom(r); pane.ID == p {
			return pane, false, nil
		}
	}
	return Pane{}, false, &NotFoundError{Kind: "pane", ID: target}
}

// ClosePipe closes pane p's pipe and removes its mark, if the pipe is still
// the one marked mark (a prefix of the option's value). A pipe someone put
// in its place is left alone. tmux 3.4 and later refuse pipe-pane on a
// dead pane, so there only the mark goes: the caller ends the relay.
func (l LiveOps) ClosePipe(ctx context.Context, p PaneID, mark string) error {
	target := string(p)
	ours := "#{m:" + mark + "*,#{" + PipeOption + "}}"
	_, err := l.c.commands(ctx,
		[]string{"if-shell", "-F", "-t", target, "#{?pane_dead,0," + ours + "}", quoteCommands([]string{"pipe-pane", "-t", target})},
		[]string{"if-shell", "-F", "-t", target, ours, quoteCommands([]string{"set-option", "-p", "-u", "-t", target, PipeOption})},
	)
	return err
}

// UnmarkPipe removes pane p's pipe mark if it is still mark, leaving the
// pipe itself alone (it is not ours any more).
func (l LiveOps) UnmarkPipe(ctx context.Context, p PaneID, mark string) error {
	target := string(p)
	_, err := l.c.command(ctx, "if-shell", "-F", "-t", target, "#{m:"+mark+"*,#{"+PipeOption+"}}",
		quoteCommands([]string{"set-option", "-p", "-u", "-t", target, PipeOption}))
	return err
}

// RecordRelay adds the relay's process id to pane p's pipe mark, so that a
// later instance can end the relay if this one dies while the pane is dead.
func (l LiveOps) RecordRelay(ctx context.Context, p PaneID, mark string, pid int) error {
	target := string(p)
	_, err := l.c.command(ctx, "if-shell", "-F", "-t", target, "#{==:#{"+PipeOption+"},"+mark+"}",
		quoteCommands([]string{"set-option", "-p", "-t", target, PipeOption, mark + "." + strconv.Itoa(pid)}))
	return err
}

// A Hold is what [LiveOps.HoldOpen] found and did.
type Hold struct {
	// Mark is the hold mark now on the pane: the caller's, or that of
	// another instance that held the pane first.
	Mark string
	// Prev is the pane's own remain-on-exit before any hold; PrevSet
	// is false when it had none of its own.
	Prev    string
	PrevSet bool
	// PanePID is the pane's process id when the hold was made.
	PanePID int
	// DeadBefore is true when the pane was already dead as the hold was
	// made: something else (keepPane, a remain-on-exit since turned off)
	// kept it open, so it would not have closed without the hold either.
	DeadBefore bool
}

// Ours reports whether the hold is the one marked mark.
func (h Hold) Ours(mark string) bool { return h.Mark == mark }

// HoldOpen turns pane p's remain-on-exit on, so that tmux keeps its exit
// status, and records mark and the pane's own previous value in
// [HoldOption] — unless the pane is already held (by another instance),
// whose record is then kept and returned.
//
// pid is the pane's process id when the caller knows it (a pane it has
// just made), else 0: it is then read with the option. (show-options
// alone succeeds for a missing pane; the hold's if-shell then fails.)
func (l LiveOps) HoldOpen(ctx context.Context, p PaneID, mark string, pid int) (Hold, error) {
	target := string(p)
	var prev string
	var prevSet bool
	var err error
	if pid > 0 {
		prev, prevSet, err = l.c.paneOption(ctx, p, "remain-on-exit")
	} else {
		pid, prev, prevSet, err = l.c.panePIDAndOption(ctx, p, "remain-on-exit")
	}
	if err != nil {
		return Hold{}, err
	}
	record := "-"
	if prevSet {
		record = "=" + prev
	}
	out, err := l.c.commands(ctx,
		// Held by another instance for as long as it waits: join it.
		// (A brief hold is taken over instead, below.)
		[]string{"if-shell", "-F", "-t", target, "#{?#{" + HoldOption + "},#{?#{m/r:" + briefHoldPattern + ",#{" + HoldOption + "}},0,1},0}",
			quoteCommands([]string{"set-option", "-p", "-a", "-t", target, CoHoldOption, " " + mark})},
		[]string{"if-shell", "-F", "-t", target, "#{?#{" + HoldOption + "},0,1}",
			quoteCommands([]string{"set-option", "-p", "-t", target, HoldOption, mark + " " + record})},
		[]string{"set-option", "-p", "-t", target, "remain-on-exit", "on"},
		// One command list runs with no event in between: pane_dead here
		// is what it was when the hold began.
		[]string{"display-message", "-p", "-t", target, "#{pane_dead} #{" + HoldOption + "}"},
	)
	if err != nil {
		return Hold{}, err
	}
	dead, value, _ := strings.Cut(strings.TrimSuffix(out, "\n"), " ")
	h, ok := ParseHold(value)
	if !ok || dead != "0" && dead != "1" {
		return Hold{}, fmt.Errorf("holding pane %s: its %s reads %q", p, HoldOption, truncate(out, 80))
	}
	if !h.Ours(mark) && h.Brief() && l.takeOver(ctx, p, value, mark+" "+h.record(), h.Mark) {
		h.Mark = mark
	}
	h.PanePID, h.DeadBefore = pid, dead == "1"
	return h, nil
}

// BriefHold starts the nonce of a hold mark made only while its maker
// waits a moment (a launch's start check): its maker puts the user's
// remain-on-exit back as soon as that ends, so another instance that
// needs the pane held for longer takes the hold over, record and all.
const BriefHold = "b-"

// briefHoldPattern matches, in tmux's regular expressions, a
// [HoldOption] value whose mark is brief (see [Hold.Brief]).
const briefHoldPattern = "^[^ ]*[.]" + BriefHold + "[^. ]* "

// Brief reports whether h was made with a [BriefHold] mark.
func (h Hold) Brief() bool {
	return strings.HasPrefix(h.Mark[strings.LastIndexByte(h.Mark, '.')+1:], BriefHold)
}

// record is h's record of the pane's own remain-on-exit, as [HoldOption]
// holds it after the mark.
func (h Hold) record() string {
	if !h.PrevSet {
		return "-"
	}
	return "=" + h.Prev
}

// takeOver puts value in place of pane p's hold, if the hold still reads
// was, and reports whether the pane's hold now reads value. The hold's
// maker, prev, becomes a co-holder: done, it leaves ([LiveOps.LeaveHold]);
// if it waits on longer, the hold comes back to it.
func (l LiveOps) takeOver(ctx context.Context, p PaneID, was, value, prev string) bool {
	target := string(p)
	out, err := l.c.commands(ctx,
		[]string{"if-shell", "-F", "-t", target, "#{==:#{" + HoldOption + "}," + literalFormat(was) + "}",
			quoteCommands([]string{"set-option", "-p", "-t", target, HoldOption, value},
				[]string{"set-option", "-p", "-a", "-t", target, CoHoldOption, " " + prev})},
		[]string{"display-message", "-p", "-t", target, "#{" + HoldOption + "}"},
	)
	return err == nil && strings.TrimSuffix(out, "\n") == value
}

// HoldOpenNew is [LiveOps.HoldOpen] of a pane the caller has just made,
// with process id pid, whose program has not started (it waits on its
// gate): such a pane cannot be dead, and no one else knows of it yet, so
// the hold is not read back. It reads the pane's own remain-on-exit (the
// one a user's hook on new panes may have set: hooks run with the command
// that made the pane, before this), then records it and turns the option
// on in one command, unless the pane is held already. Whoever reads the
// pane later sees in its HoldMark whether the hold is the caller's.
func (l LiveOps) HoldOpenNew(ctx context.Context, p PaneID, mark string, pid int) (Hold, error) {
	target := string(p)
	prev, prevSet, err := l.c.paneOption(ctx, p, "remain-on-exit")
	if err != nil {
		return Hold{}, err
	}
	record := "-"
	if prevSet {
		record = "=" + prev
	}
	_, err = l.c.command(ctx, "if-shell", "-F", "-t", target, "#{?#{"+HoldOption+"},0,1}",
		quoteCommands(
			[]string{"set-option", "-p", "-t", target, HoldOption, mark + " " + record},
			[]string{"set-option", "-p", "-t", target, "remain-on-exit", "on"},
		))
	if err != nil {
		return Hold{}, err
	}
	return Hold{Mark: mark, Prev: prev, PrevSet: prevSet, PanePID: pid}, nil
}

// ParseHold reads a [HoldOption] value.
func ParseHold(v string) (Hold, bool) {
	mark, rest, ok := strings.Cut(v, " ")
	if !ok || mark == "" {
		return Hold{}, false
	}
	if rest == "-" {
		return Hold{Mark: mark}, true
	}
	if prev, ok := strings.CutPrefix(rest, "="); ok {
		return Hold{Mark: mark, Prev: prev, PrevSet: true}, true
	}
	return Hold{}, false
}

// ReleaseHold ends h, the hold of pane p under h's mark, and reports
// whether the pane's own remain-on-exit is back. Without co-holders it
// is put back and the mark removed. Otherwise the hold, record and all,
// goes to the first co-holder alive says still runs (dead ones are
// dropped), and released is false: the pane stays held for it. A pane
// no longer held under h's mark (one of a restarted tmux server that
// reuses the id) is not touched.
func (l LiveOps) ReleaseHold(ctx context.Context, p PaneID, h Hold, alive func(mark string) bool) (released bool, err error) {
	target := string(p)
	restore := []string{"set-option", "-p", "-u", "-t", target, "remain-on-exit"}
	if h.PrevSet {
		restore = []string{"set-option", "-p", "-t", target, "remain-on-exit", h.Prev}
	}
	unhold := []string{"set-option", "-p", "-u", "-t", target, HoldOption}
	ours := "#{m:" + h.Mark + " *,#{" + HoldOption + "}}"
	hold, also, err := l.readHoldAfter(ctx, p,
		[]string{"if-shell", "-F", "-t", target, "#{?#{" + CoHoldOption + "},0," + ours + "}", quoteCommands(restore, unhold)})
	for range holdTries {
		switch {
		case err != nil:
			return false, err
		case hold == "":
			return true, nil
		case !strings.HasPrefix(hold, h.Mark+" "):
			return false, nil // another instance holds it now
		}
		// Co-holders wait: the first that runs gets the hold, or, if none
		// does, the user's setting comes back; either only if nothing
		// changed since the read.
		marks := strings.Fields(also)
		next := slices.IndexFunc(marks, alive)
		then := quoteCommands(restore, unhold, []string{"set-option", "-p", "-u", "-t", target, CoHoldOption})
		if next >= 0 {
			rest := setCoHolders(target, marks[next+1:], alive)
			then = quoteCommands([]string{"set-option", "-p", "-t", target, HoldOption, marks[next] + " " + h.record()}, rest)
		}
		hold, also, err = l.readHoldAfter(ctx, p,
			[]string{"if-shell", "-F", "-t", target, unchangedHold(hold, also), then})
	}
	return false, err
}

// holdTries bounds the rounds of a change to a hold that other instances
// keep changing under it.
const holdTries = 5

// unchangedHold is a format true while a pane's hold and co-holders read
// hold and also.
func unchangedHold(hold, also string) string {
	return "#{&&:#{==:#{" + HoldOption + "}," + literalFormat(hold) + "},#{==:#{" + CoHoldOption + "}," + literalFormat(also) + "}}"
}

// setCoHolders is the command that leaves the marks alive says still run,
// of marks, as a pane's co-holders.
func setCoHolders(target string, marks []string, alive func(string) bool) []string {
	var kept strings.Builder
	for _, m := range marks {
		if alive(m) {
			kept.WriteString(" " + m)
		}
	}
	if kept.Len() == 0 {
		return []string{"set-option", "-p", "-u", "-t", target, CoHoldOption}
	}
	return []string{"set-option", "-p", "-t", target, CoHoldOption, kept.String()}
}

// readHoldAfter runs cmd (if not nil), then reads pane p's hold and
// co-holders, in one command list.
func (l LiveOps) readHoldAfter(ctx context.Context, p PaneID, cmd []string) (hold, also string, err error) {
	target := string(p)
	cmds := [][]string{
		{"display-message", "-p", "-t", target, "#{" + HoldOption + "}"},
		{"display-message", "-p", "-t", target, "#{" + CoHoldOption + "}"},
	}
	if cmd != nil {
		cmds = append([][]string{cmd}, cmds...)
	}
	out, err := l.c.commands(ctx, cmds...)
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 3 || lines[2] != "" {
		return "", "", fmt.Errorf("reading the hold of pane %s: %q", p, truncate(out, 80))
	}
	return lines[0], lines[1], nil
}

// LeaveHold takes mark off pane p's co-holders, for an instance whose
// wait on a pane another instance holds is over. If the hold was handed
// to mark meanwhile, or its holder no longer runs (alive says), owner is
// true and hold is the hold, for the caller to release
// ([LiveOps.ReleaseHold], with an alive that leaves out mark).
func (l LiveOps) LeaveHold(ctx context.Context, p PaneID, mark string, alive func(mark string) bool) (hold Hold, owner bool, err error) {
	target := string(p)
	value, also, err := l.readHoldAfter(ctx, p, nil)
	for range holdTries {
		if err != nil {
			return Hold{}, false, err
		}
		if h, ok := ParseHold(value); ok && (h.Ours(mark) || !alive(h.Mark)) {
			return h, true, nil
		}
		marks := strings.Fields(also)
		if !slices.Contains(marks, mark) {
			return Hold{}, false, nil
		}
		others := setCoHolders(target, marks, func(m string) bool { return m != mark })
		value, also, err = l.readHoldAfter(ctx, p,
			[]string{"if-shell", "-F", "-t", target, unchangedHold(value, also), quoteCommands(others)})
	}
	return Hold{}, false, err
}

// ReleaseLiveHold is [LiveOps.ReleaseHold] only while pane p is alive, in
// one command: released is true when the pane was alive and held under
// h's mark with no co-holders, and its own remain-on-exit is back.
// Otherwise nothing changed and pane is the pane as it is (dead, held by
// another instance, or waited on by others too).
func (l LiveOps) ReleaseLiveHold(ctx context.Context, p PaneID, h Hold) (pane Pane, released bool, err error) {
	target := string(p)
	restore := []string{"set-option", "-p", "-u", "-t", target, "remain-on-exit"}
	if h.PrevSet {
		restore = []string{"set-option", "-p", "-t", target, "remain-on-exit", h.Prev}
	}
	return l.ifElseRead(ctx, p, "#{?pane_dead,0,#{?#{"+CoHoldOption+"},0,#{m:"+h.Mark+" *,#{"+HoldOption+"}}}}",
		quoteCommands(restore, []string{"set-option", "-p", "-u", "-t", target, HoldOption}))
}

// KillDeadPane closes pane p if it is dead and its process id is still pid
// (a pane of a restarted server that reuses the id is left alone).
func (l LiveOps) KillDeadPane(ctx context.Context, p PaneID, pid int) error {
	target := string(p)
	_, err := l.c.command(ctx, "if-shell", "-F", "-t", target, "#{?pane_dead,#{==:#{pane_pid},"+strconv.Itoa(pid)+"},0}",
		quoteCommands([]string{"kill-pane", "-t", target}))
	return err
}

// A HookEntry is one entry of a global hook array.
type HookEntry struct {
	Index   int
	Command string // as show-hooks prints it
}

// Hooks returns the entries of the global hook array name.
func (l LiveOps) Hooks(ctx context.Context, name string) ([]HookEntry, error) {
	out, err := l.c.command(ctx, "show-hooks", "-g", name)
	if err != nil {
		return nil, err
	}
	var entries []HookEntry
	for _, line := range strings.Split(out, "\n") {
		m := hookEntry.FindStringSubmatch(line)
		if m == nil || m[1] != name {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		entries = append(entries, HookEntry{Index: n, Command: m[3]})
	}
	return entries, nil
}

// SetHook sets entry index of the global hook array name to a command
// that signals channel (wait-for -S): the only hook command tmux-mcp uses.
func (l LiveOps) SetHook(ctx context.Context, name string, index int, channel string) error {
	if !safeChannel.MatchString(channel) {
		return errors.New("hook channel names must be letters, digits, '.', '_' and '-'")
	}
	_, err := l.c.command(ctx, "set-hook", "-g", name+"["+strconv.Itoa(index)+"]", "wait-for -S "+channel)
	return err
}

var safeChannel = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// UnsetHook removes entry index of the global hook array name.
func (l LiveOps) UnsetHook(ctx context.Context, name string, index int) error {
	_, err := l.c.command(ctx, "set-hook", "-g", "-u", name+"["+strconv.Itoa(index)+"]")
	return err
}

// ServerPID returns the tmux server's process id.
func (l LiveOps) ServerPID(ctx context.Context) (int, error) {
	out, err := l.c.command(ctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// quoteCommands writes commands in tmux's command language, for commands
// that tmux parses later (if-shell): every argument is quoted so that it
// reaches the command as it is, and the commands are joined with " ; ".
func quoteCommands(cmds ...[]string) string {
	var b strings.Builder
	for i, argv := range cmds {
		if i > 0 {
			b.WriteString(" ; ")
		}
		for j, a := range argv {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(quoteWord(a))
		}
	}
	return b.String()
}

// quoteWord quotes one argument for tmux's command parser: in single
// quotes, where nothing is special, unless it holds a single quote or a
// line break; then in double quotes with \ " $ escaped (and ~ cannot
// expand inside quotes).
func quoteWord(a string) string {
	if !strings.ContainsAny(a, "'\n\r") {
		return "'" + a + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range a {
		switch r {
		case '\\', '"', '$':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// expandedLiterally escapes s for an argument that tmux expands with
// strftime and then as a format (pipe-pane's and run-shell's commands), so
// that what runs is exactly s: "%" and "#" are doubled.
func expandedLiterally(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "%", "%%"), "#", "##")
}

// panePIDAndOption reads pane p's process id and its own value of option
// name (set is false when the pane has none of its own) in one client.
// list-panes fails for a missing pane, which show-options alone does not.
func (c *Client) panePIDAndOption(ctx context.Context, p PaneID, name string) (pid int, value string, set bool, err error) {
	token := "_" + Nonce(12) + " "
	out, err := c.commands(ctx,
		[]string{"list-panes", "-t", string(p), "-F", token + "#{pane_id} #{pane_pid}"},
		[]string{"show-options", "-p", "-q", "-t", string(p), name},
	)
	if err != nil {
		return 0, "", false, err
	}
	found := false
	var rest []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		row, ok := strings.CutPrefix(line, token)
		if !ok {
			rest = append(rest, line)
			continue
		}
		id, n, _ := strings.Cut(row, " ")
		if PaneID(id) == p {
			pid, found = atoi(n), true
		}
	}
	if !found {
		return 0, "", false, &NotFoundError{Kind: "pane", ID: string(p)}
	}
	line := strings.TrimSpace(strings.Join(rest, "\n"))
	if line == "" {
		return pid, "", false, nil
	}
	_, value, _ = strings.Cut(line, " ")
	return pid, value, true, nil
}
