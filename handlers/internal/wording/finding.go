package wording

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// Refusals of finding, making, typing and watching calls' arguments.

// NotBoth refuses a call that gave two arguments that exclude each other.
func NotBoth(a, b string) error { return errorf("give %s or %s, not both", a, b) }

// NoSessionNamed says no session has the name asked for.
func NoSessionNamed(name string, sessions []tmuxctl.Session) error {
	items := make([]string, len(sessions))
	for i, s := range sessions {
		items[i] = strconv.Quote(s.Name) + " (" + string(s.ID) + ")"
	}
	return errorf("sessionName %s matches no session (existing: %s); names match exactly, or pass sessionId", strconv.Quote(name), List(items))
}

// NoWindowNamed says no window where ("in session $1", or "") has the
// name asked for, and which windows there are.
func NoWindowNamed(name, where string, windows []tmuxctl.Window) error {
	return errorf("windowName %s matches no window %s (existing: %s); names match exactly, or pass windowId", strconv.Quote(name), where, windowList(windows))
}

// AmbiguousWindowName says several windows have the name asked for.
func AmbiguousWindowName(name, where string, matches []tmuxctl.Window) error {
	return errorf("windowName %s is ambiguous: %d windows %s have it (%s); pass windowId, or sessionId/sessionName to narrow it", strconv.Quote(name), len(matches), where, windowList(matches))
}

// windowList lists up to a dozen windows as `"name" (@N in session "s")`.
func windowList(windows []tmuxctl.Window) string {
	items := make([]string, len(windows))
	for i, w := range windows {
		items[i] = fmt.Sprintf("%s (%s in session %s)", strconv.Quote(w.Name), w.ID, strconv.Quote(w.SessionName))
	}
	return List(items)
}

// SplitSizeAcross refuses a size across a split's direction dir: the new
// pane spans the split one that way. along is the size that can be set
// ("width (columns)"), and others the directions where the refused one
// could be.
func SplitSizeAcross(refused string, dir tmuxctl.Direction, along, others string) error {
	return errorf("%s cannot be set when splitting %s: the new pane has the split pane's %s; use %s, or direction %s", refused, dir, refused, along, others)
}

// NotStarted says a program a create call started did not start: how it
// ended (its exit status or signal, when known) and the end of what it
// printed, within Most characters; kind is what was made for it and
// removed ("session", "window" or "pane").
func NotStarted(program, kind string, status *int, signal *string, said string) error {
	how := "it ended at once"
	switch {
	case signal != nil:
		how = "it was killed at once by " + *signal
	case status != nil && *status == 127:
		how = "exit status 127: not found"
	case status != nil && *status == 126:
		how = "exit status 126: found but could not be run"
	case status != nil:
		how = "it exited at once with status " + strconv.Itoa(*status)
	}
	msg := fmt.Sprintf("program %s did not start (%s); the %s made for it was removed", plainOrQuoted(Shorten(program, 80)), how, kind)
	if said != "" {
		msg += ". It printed: "
		// The end of what it printed says why: keep that.
		if r := []rune(said); len(r) > Most-utf8.RuneCountInString(msg) {
			said = "…" + string(r[len(r)-(Most-utf8.RuneCountInString(msg)-1):])
		}
		msg += said
	}
	return errors.New(msg)
}

// KeysTooLong refuses keys of n bytes, over the most one call may type.
func KeysTooLong(what string, n, most int) error {
	return errorf("%s %d bytes, more than the %d one call may type; send it in parts, or use paste_text", what, n, most)
}

// BadKeys words a key string tmuxctl could not read.
func BadKeys(err error) error { return errorf("keys: %s", Reason(err)) }

// KeysShape refuses keys that are neither a string nor a list of items.
func KeysShape() error {
	return errors.New(`keys must be a string or a non-empty array of {"text": …} and {"key": …} items`)
}

// KeyItemShape refuses an item with both or neither of text and key.
func KeyItemShape(i int) error {
	return errorf(`keys[%d] must have exactly one of "text" and "key"`, i)
}

// BadKeyItem refuses item i's key, which tmux would not read as a key. It
// never repeats the key: text put there by mistake may be a secret.
func BadKeyItem(i int) error {
	return errorf(`keys[%d].key is not a tmux key name: use a name such as Enter, Escape, Tab, BSpace, Up, PageUp, F1 or KPEnter, or one character, each optionally after C-, M- or S- (C-c, M-x, C-M-Left); or ^X; or a hex code such as 0x1b. To type text, use {"text": …} instead`, i)
}

// RowsReversed refuses a capture whose start is after its end once both
// are clamped to the pane's rows first..last.
func RowsReversed(start, end, first, last int, pane tmuxctl.PaneID) error {
	return errorf("start (%d) is after end (%d) once clamped to rows %d..%d of pane %s; 0 is the top of the screen, negative rows are history", start, end, first, last, pane)
}

// StreamEndedAllRead says a stream ended (why) and all of it was read.
func StreamEndedAllRead(pane tmuxctl.PaneID, why string) error {
	return errorf("the stream of pane %s ended (%s) and nothing unread is left; omit the cursor to start again", pane, why)
}

// PaneGoneAllRead says a pane is gone and all it printed was read.
func PaneGoneAllRead(pane tmuxctl.PaneID) error {
	return errorf("pane %s is gone and everything it printed has been read; list_panes shows the panes that exist", pane)
}

// UnreadableVersion says tmux reported a version this server cannot read.
func UnreadableVersion(v string) error {
	return errorf("the tmux server reports version %q, which this server cannot read", Shorten(v, 40))
}

// PositionArgs refuses find_pane_by_position's arguments; which is one of
// "both", "pane", "cell", "neither".
func PositionArgs(which string) error {
	switch which {
	case "both":
		return errors.New("give either paneId and side, or windowId, x and y — not both")
	case "pane":
		return errors.New("paneId and side go together: side says where to look from paneId")
	case "cell":
		return errors.New("windowId, x and y go together: x and y are a cell of windowId")
	}
	return errors.New("give paneId and side (the panes next to a pane), or windowId, x and y (the pane at a cell)")
}

// NotInLayout says a pane is missing from its window's layout.
func NotInLayout(pane string, window tmuxctl.WindowID) error {
	return errorf("pane %s is not in the layout of its window %s", pane, window)
}

// CellOutside refuses a cell outside a width×height window.
func CellOutside(x, y int, window tmuxctl.WindowID, width, height int) error {
	return errorf("cell x=%d y=%d is outside window %s, which is %dx%d (x from 0 to %d, y from 0 to %d)", x, y, window, width, height, width-1, height-1)
}

// BadSearchPattern refuses search_panes' pattern.
func BadSearchPattern(err error) error {
	return errorf("pattern is not a valid Go RE2 expression (%s); leave regex false to search for the text as it is", Shorten(err.Error(), 200))
}

// SearchScopeTwice refuses paneIds given with sessionId or windowId.
func SearchScopeTwice() error {
	return errors.New("give paneIds, or sessionId and/or windowId, not both: paneIds already says which panes to search")
}

// BatchOverTime and BatchOverBytes say why a batch did not run a call.
func BatchOverTime(ceiling fmt.Stringer) error {
	return errorf("not run: the batch used the server's wait ceiling (%v) before reaching this call", ceiling)
}

// BatchOverBytes: see BatchOverTime.
func BatchOverBytes(most int) error {
	return errorf("not run: the results before it reached the server's byte ceiling (%d bytes); call it on its own or in a later batch", most)
}

// BatchSelf refuses a batch that calls itself.
func BatchSelf(batch string) error { return errorf("%s cannot call itself", batch) }

// BatchNotReadOnly refuses a tool a batch cannot call, naming those it can.
func BatchNotReadOnly(tool string, allowed []string) error {
	return errorf("%s is not a read-only tool; a batch calls only: %s", Shorten(tool, 60), strings.Join(allowed, ", "))
}

// BatchNotObject says a tool's result was not a JSON object.
func BatchNotObject(tool string, err error) error {
	return errorf("%s returned a result that is not an object: %s", tool, Shorten(err.Error(), 200))
}
