package framed

import (
	"strings"
	"testing"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
)

// TestEndedCommandsLastTheGraceAfterTheirLastCall: a stored result is
// found while calls keep coming, and forgotten a grace after the last.
func TestEndedCommandsLastTheGraceAfterTheirLastCall(t *testing.T) {
	now := time.Unix(1000, 0)
	b := newBook(t.TempDir(), time.Minute)
	b.now = func() time.Time { return now }
	id := "cmd." + b.instance + ".1"
	c := &Command{ID: id, Pane: "%1", result: &Result{Outcome: Completed}, lastCall: now}
	b.byID[c.ID], b.byPane[c.Pane] = c, c
	for range 3 {
		now = now.Add(50 * time.Second)
		if _, ok := b.Find(id); !ok {
			t.Fatalf("forgotten 50 s after its last call")
		}
	}
	now = now.Add(61 * time.Second)
	if _, ok := b.Find(id); ok {
		t.Fatal("still kept 61 s after its last call, with a 60 s grace")
	}
	if b.byPane["%1"] != nil {
		t.Error("the pane still names the forgotten command")
	}
}

// TestUnknownIDsSayWhy: an id of another server run is told apart from
// an expired one of this run.
func TestUnknownIDsSayWhy(t *testing.T) {
	b := newBook(t.TempDir(), time.Minute)
	if other := newBook(t.TempDir(), time.Minute); other.instance == b.instance {
		t.Fatalf("two books share the instance %s", b.instance)
	}
	if err := b.ErrUnknown("cmd." + b.instance + ".3"); strings.Contains(err.Error(), "earlier server run") {
		t.Errorf("an id of this run: %v", err)
	}
	if err := b.ErrUnknown("cmd.0000000g.3"); !strings.Contains(err.Error(), "earlier server run") {
		t.Errorf("an id of another run: %v", err)
	}
}

// TestOutcomeOfMarkers reads the markers runners print.
func TestOutcomeOfMarkers(t *testing.T) {
	for _, c := range []struct {
		kind   string
		status int
		detail string
		want   Outcome
		signal string
	}{
		{"end", 0, "", Completed, ""},
		{"end", 7, "", Completed, ""},
		{"end", 143, "", Interrupted, "SIGTERM"},
		{"end", 255, "", Completed, ""},
		{"abort", 130, "INT", Interrupted, "SIGINT"},
		{"abort", 130, "", Interrupted, "SIGINT"},
		{"abort", 258, "", Interrupted, "SIGINT"},
		{"stop", 148, "123", Suspended, "SIGTSTP"},
		{"stop", 0, "123", Suspended, ""},
	} {
		m := markerOf(c.kind, c.status, c.detail)
		if got := outcomeOf(m); got != c.want {
			t.Errorf("%s;%d;%s: outcome %d, want %d", c.kind, c.status, c.detail, got, c.want)
		}
		if got := signalOf(m); got != c.signal {
			t.Errorf("%s;%d;%s: signal %q, want %q", c.kind, c.status, c.detail, got, c.signal)
		}
	}
}

func markerOf(kind string, status int, detail string) frame.Marker {
	return frame.Marker{Nonce: "n", Kind: frame.Kind(kind), Status: status, Detail: detail}
}

// TestForcedOverCommandsAreForgotten: a command another was forced over
// never ends in the book; it goes a grace after its last call, with its
// hold on the stream.
func TestForcedOverCommandsAreForgotten(t *testing.T) {
	now := time.Unix(1000, 0)
	b := newBook(t.TempDir(), time.Minute)
	b.now = func() time.Time { return now }
	released := 0
	old := &Command{ID: "cmd." + b.instance + ".1", Pane: "%1", lastCall: now, Release: func() { released++ }}
	newer := &Command{ID: "cmd." + b.instance + ".2", Pane: "%1", result: &Result{}, lastCall: now.Add(time.Hour)}
	b.byID[old.ID], b.byID[newer.ID], b.byPane["%1"] = old, newer, newer
	now = now.Add(61 * time.Second)
	if _, ok := b.Find(old.ID); ok {
		t.Error("a forced-over command is kept past the grace")
	}
	if released != 1 {
		t.Errorf("its hold on the stream was released %d times, want 1", released)
	}
	if _, ok := b.Find(newer.ID); !ok {
		t.Error("the newer command was forgotten too")
	}
}

// TestFrameOfMarkers reads where a command starts and how it ended from
// its markers, oldest first: an end is End, else Abort, else Stop.
func TestFrameOfMarkers(t *testing.T) {
	at := func(kind string, off int64) frame.Marker {
		m := markerOf(kind, 0, "")
		m.Offset = off
		return m
	}
	for _, c := range []struct {
		name    string
		markers []frame.Marker
		start   int64
		end     string // the ending marker's kind, "" when not ended
		endAt   int64
	}{
		{"nothing yet", nil, -1, "", 0},
		{"started", []frame.Marker{at("start", 5)}, 5, "", 0},
		{"ended", []frame.Marker{at("start", 5), at("end", 9)}, 5, "end", 9},
		{"an end alone (the start dropped from the 64 kept)", []frame.Marker{at("end", 9)}, -1, "end", 9},
		{"aborted", []frame.Marker{at("start", 5), at("abort", 7)}, 5, "abort", 7},
		{"stopped", []frame.Marker{at("start", 5), at("stop", 7)}, 5, "stop", 7},
		{"stopped, resumed, ended (ksh)", []frame.Marker{at("start", 5), at("stop", 7), at("end", 12)}, 5, "end", 12},
		{"end before abort", []frame.Marker{at("start", 5), at("abort", 7), at("end", 8)}, 5, "end", 8},
	} {
		f := frameOf(c.markers)
		if f.Start != c.start || f.Ended != (c.end != "") || f.Ended && (string(f.End.Kind) != c.end || f.End.Offset != c.endAt) {
			t.Errorf("%s: %+v, want start %d, end %q at %d", c.name, f, c.start, c.end, c.endAt)
		}
	}
}
