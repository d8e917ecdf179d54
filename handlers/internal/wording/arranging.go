package wording

import (
	"errors"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// Refusals of arranging, channel, option, program and command calls, and
// of the engines' arguments (cursors, patterns).

// ResizeOneOf refuses resize_pane without exactly one kind of change.
func ResizeOneOf() error {
	return errors.New("give exactly one of: width and/or height (a size), direction (with amount), or zoomed (a state to reach)")
}

// ZoomAlone refuses to zoom the only pane of a window.
func ZoomAlone(w tmuxctl.WindowID, p tmuxctl.PaneID) error {
	return errorf("window %s has only pane %s, which already fills it; tmux zooms only a window of two or more panes", w, p)
}

// ResizeWindowNothing refuses resize_window with no size.
func ResizeWindowNothing() error { return errors.New("give width, height or both") }

// SamePane refuses a pane paired with itself; why says what that would do.
func SamePane(why string) error {
	return errorf("paneId and targetPaneId are the same pane; %s", why)
}

// AlreadyAlone refuses to break out a pane that is alone in its window.
func AlreadyAlone(p tmuxctl.PaneID, w tmuxctl.WindowID) error {
	return errorf("pane %s is already alone in window %s; to move that window use move_window, to rename it rename_window", p, w)
}

// Field names the input field whose value was refused.
func Field(field string, err error) error { return errorf("%s: %w", field, err) }

// NameControl, NameBackslash, NameDollar and NameSeparator refuse a
// character of a name tmux would store changed.
func NameControl(field string, r rune, at int) error {
	return errorf("%s: character %U at byte %d is a control character (tab, newline, escape, …); tmux would store it escaped or drop it, so it is refused — use printable text", field, r, at)
}

// NameBackslash: see NameControl.
func NameBackslash(field string, at int) error {
	return errorf("%s: a backslash (byte %d) is refused: tmux would store it doubled", field, at)
}

// NameDollar: see NameControl.
func NameDollar(field string, next byte, at int) error {
	return errorf("%s: '$' followed by %q (byte %d) is refused: tmux before 3.7 stores it as '\\$', like a shell variable it escapes", field, next, at)
}

// NameSeparator: see NameControl.
func NameSeparator(field string, r rune, at int) error {
	return errorf("%s: %q (byte %d) is refused in a session name: tmux reads it as a target separator (and before 3.7 stores it as '_')", field, r, at)
}

// ChannelTimeout refuses a timeout that is not a positive number.
func ChannelTimeout(got float64) error {
	return errorf("timeout must be a positive number of seconds (fractions allowed, e.g. 0.5); got %v", got)
}

// ChannelNotSignalled says a channel wait timed out after enforced
// seconds (clampNote says when the request was clamped).
func ChannelNotSignalled(channel, enforced, clampNote string) error {
	return errorf("channel %q was not signalled within the enforced timeout of %ss%s; the wait-for child was killed. tmux keeps the killed waiter queued and it will absorb this channel's next signal, so to wait again use a fresh channel name, signalled with `tmux wait-for -S <name>` (or signal_channel) after the work it marks", channel, enforced, clampNote)
}

// ChannelCancelled says a channel wait was cancelled.
func ChannelCancelled(channel string) error {
	return errorf("wait for channel %q was cancelled before it was signalled; the wait-for child was killed", channel)
}

// ChannelServerStopped says the tmux server stopped during a channel wait.
func ChannelServerStopped(socket, channel string) error {
	return errorf("the tmux server on socket %s stopped while waiting for channel %q, so it was never signalled", socket, channel)
}

// BadChannel refuses a channel name.
func BadChannel(channel string) error {
	return errorf("channel %q is not a valid name: use 1 to 128 of A-Z a-z 0-9 _ . : -", Shorten(channel, 140))
}

// BadSocketName refuses a socket_name; name is nil when it was not a string.
func BadSocketName(name *string) error {
	if name == nil {
		return errors.New("socket_name must be a string or null")
	}
	return errorf("socket_name %q is not a socket name: give a plain name as for tmux -L (no '/'), or null for the server's socket", Shorten(*name, 140))
}

// ValueRequired refuses a set call with neither value nor unset.
func ValueRequired() error { return errors.New("value is required unless unset is true") }

// OptionOurs refuses the options where tmux-mcp records what it changed.
func OptionOurs(name string) error {
	return errorf("option %s is where tmux-mcp records what it changed in tmux, so it can undo it; it cannot be set or unset through set_option", name)
}

// OptionRuns refuses an option whose value tmux runs or writes to.
func OptionRuns(name string) error {
	return errorf("option %s holds a command tmux runs (or a file it writes); tmux-mcp never sets it — choose another option or a user option (@name)", name)
}

// OptionHook refuses to set a hook.
func OptionHook(name string) error {
	return errorf("%s is a hook: its value is a command tmux runs, so tmux-mcp never sets it", name)
}

// OptionAbbreviated refuses a name that is not a full option name.
func OptionAbbreviated(name string) error {
	return errorf("name %s is not an option of this tmux (tmux-mcp takes full option names only, never abbreviations); show_option without a name lists them, and user options start with @", name)
}

// OptionHash refuses a value with a '#' tmux would expand.
func OptionHash(name string) error {
	return errorf("value of %s contains '#', which tmux would expand as a format (and #(...) would run a shell command); tmux's own options take '#' only in a colour such as #ff0000 — store free text in a user option (@name) instead", name)
}

// BadScope refuses an option scope.
func BadScope(scope string) error {
	return errorf("scope %q: want server, session, window or pane", scope)
}

// PaneGlobal refuses global pane options.
func PaneGlobal() error {
	return errors.New("panes have no global options of their own: they inherit from the window's; use scope window with global:true")
}

// ScopeTarget refuses a scope with no target.
func ScopeTarget(scope, kind, prefix string) error {
	return errorf("scope %s needs targetId, a %s id (%sN), or global:true for the global defaults", scope, kind, prefix)
}

// NoHook says no hook has the name asked for.
func NoHook(name string) error {
	return errorf("no hook is named %s; omit name to list the hooks that are set", name)
}

// TooLongForTmux refuses a value longer than one tmux command takes.
func TooLongForTmux(field string, n, most int) error {
	return errorf("%s is %d bytes; tmux takes at most %d in one command (for long text, use load_buffer)", field, n, most)
}

// NoBuffer says a paste buffer does not exist.
func NoBuffer(name string) error {
	return errorf("buffer %q does not exist; list_buffers shows the buffers there are", name)
}

// PrivateBuffer refuses the names of tmux-mcp's private paste buffers.
func PrivateBuffer(name string) error {
	return errorf("name %s: buffer names starting with %s are tmux-mcp's private paste buffers; choose another name", name, tmuxctl.PasteBufferPrefix)
}

// ShellBusy refuses to type a command into a shell running command.
func ShellBusy(p tmuxctl.PaneID, command, shell string) error {
	return errorf("pane %s is running %q in its shell (%s), which is busy or still starting; typing a command there would go to that program. Wait for it, or pass force:true to type the command ahead: it runs when the shell reads it (state not_started until then)", p, command, shell)
}

// NotAShell refuses to type a command into a pane running command.
func NotAShell(p tmuxctl.PaneID, command string) error {
	return errorf("pane %s is running %q, not a shell at its prompt; typing a command there would go to that program. Wait for it with wait_for_exit, or pass force:true if %q is a shell", p, command, command)
}

// CommandFile says the command file could not be written.
func CommandFile(err error) error { return errorf("writing the command file: %s", Reason(err)) }

// SplitPlacement refuses start_program's splitPaneId combined with a new
// window's placement (sized: with width or height).
func SplitPlacement(sized bool) error {
	if sized {
		return errors.New("splitPaneId places the program in an existing window, whose size this call does not change: width and height cannot be combined with it — resize that window (resize_window) or pane (resize_pane) first, or omit splitPaneId for a new window of the size you need")
	}
	return errors.New("splitPaneId places the program in an existing window; it cannot be combined with sessionName or windowName")
}

// MayStillRun adds to err that program may still run in pane.
func MayStillRun(err error, program string, p tmuxctl.PaneID) error {
	return errorf("%w; %s may still be running in pane %s", err, Shorten(program, 80), p)
}

// CommandBusy refuses to type into a pane a command still reserves;
// suspended says it is stopped as a job.
func CommandBusy(p tmuxctl.PaneID, id string, suspended bool) error {
	if suspended {
		return errorf("pane %s has the job %s stopped (suspended): resume it with send_keys fg and wait for it with wait_for_text, or end it (send_keys C-c once resumed); the pane is free once the job has ended, or pass force:true to type into it anyway", p, id)
	}
	return errorf("pane %s is still running %s from run_shell_command; wait for it with wait_for_command, interrupt it with send_keys C-c, or pass force:true to type into it anyway", p, id)
}

// UnknownCommand says a commandId names no command: ours says it is of
// this server run (its result expired), else of another run.
func UnknownCommand(id string, ours bool) error {
	id = Shorten(id, 80)
	if ours {
		return errorf("commandId %q is not known (any more): an ended command's result is kept for the exit grace after its last call; the pane itself may still show what it printed (capture_pane)", id)
	}
	return errorf("commandId %q is not known to this server: it comes from an earlier server run (the server has restarted since) or another server; look at the pane itself (capture_pane), and use the commandIds run_shell_command returns from now on", id)
}

// TooManyPatterns and PatternsTooBig refuse wait_for_text's patterns.
func TooManyPatterns(n, most int) error {
	return errorf("patterns has %d entries; at most %d are allowed", n, most)
}

// PatternsTooBig: see TooManyPatterns.
func PatternsTooBig(n, most int) error {
	return errorf("patterns add up to %d bytes; at most %d bytes in all are allowed", n, most)
}

// BadPattern refuses a pattern that is not RE2.
func BadPattern(i int, pattern string, err error) error {
	// The pattern is compiled with a (?m) of this server's in front: the
	// agent wrote it without.
	why := strings.Replace(err.Error(), "`(?m)", "`", 1)
	return errorf("patterns[%d] %q is not a valid RE2 regular expression: %s", i, Shorten(pattern, 200), Shorten(why, 120))
}

// CursorBeyondAny refuses a cursor whose offset no stream can reach.
func CursorBeyondAny(cursor string, p tmuxctl.PaneID) error {
	return errorf("cursor %q is ahead of the stream of pane %s (its offset is larger than any stream can reach); pass a cursor a result gave you, or omit it", Shorten(cursor, 80), p)
}

// CursorMalformed refuses a cursor that is not one.
func CursorMalformed(cursor string, err error) error {
	return errorf("cursor %q is malformed (%s); pass a cursor exactly as a previous result gave it, or omit it", Shorten(cursor, 80), Shorten(err.Error(), 120))
}

// CursorExpired refuses a cursor of a stream that is no more.
func CursorExpired(cursor, why string) error {
	return errorf("cursor %q is no longer valid: %s; omit the cursor to start again", Shorten(cursor, 80), why)
}

// CursorOtherPane refuses a cursor of another pane's stream.
func CursorOtherPane(cursor string, of, p tmuxctl.PaneID) error {
	return errorf("cursor %q belongs to pane %s, not %s; pass it with paneId %s, or omit it to start watching %s", Shorten(cursor, 80), of, p, of, p)
}

// CursorAhead refuses a cursor past what has arrived.
func CursorAhead(cursor string, p tmuxctl.PaneID, off, end int64) error {
	return errorf("cursor %q is ahead of the stream of pane %s (offset %d, but only %d bytes have arrived); pass a cursor a result gave you, or omit it", Shorten(cursor, 80), p, off, end)
}
