package tmuxctl

import (
	"context"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl/internal/livekey"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// A hold value reads back to its mark and record, and only a mark whose
// last part starts with BriefHold is brief, whatever dots the instance's
// id holds.
func TestParseHoldBrief(t *testing.T) {
	for _, tc := range []struct {
		value, record string
		brief         bool
	}{
		{"123.9f2a.b-7216eab7 -", "-", true},
		{"123.9f2a.7216eab7 =on", "=on", false},
		{"123.b-9f2a.7216eab7 =failed", "=failed", false},
		{"123.b-7216 =off", "=off", true},
	} {
		h, ok := ParseHold(tc.value)
		if !ok {
			t.Fatalf("%q: not a hold", tc.value)
		}
		if h.Brief() != tc.brief || h.record() != tc.record || h.Mark+" "+h.record() != tc.value {
			t.Errorf("%q: brief %v record %q mark %q; want brief %v record %q", tc.value, h.Brief(), h.record(), h.Mark, tc.brief, tc.record)
		}
	}
}

// A hold passes between instances that wait on one pane: a second
// HoldOpen joins the first as a co-holder (a brief hold it takes over
// instead), the maker's release hands the hold to the first co-holder
// that runs and drops dead ones, and the last release puts the pane's own
// remain-on-exit back and leaves no option behind.
func TestHoldPassesToCoHolders(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ops := c.LiveOps(livekey.Key{})
	ctx := context.Background()
	tmuxtest.Run(t, sock, "set-option", "-p", "-t", "%0", "remain-on-exit", "failed")
	read := func() string {
		return tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "[#{@tmux-mcp-hold}][#{@tmux-mcp-hold-also}][#{remain-on-exit}]")
	}
	hold := func(mark string) Hold {
		h, err := ops.HoldOpen(ctx, "%0", mark, 0)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	a := hold("1.aa.11")
	hold("2.bb.22")
	hold("3.cc.33")
	if got := read(); got != "[1.aa.11 =failed][ 2.bb.22 3.cc.33][on]\n" {
		t.Fatalf("held by A with B and C waiting: %q", got)
	}
	alive := func(m string) bool { return m != "2.bb.22" } // B has died
	if released, err := ops.ReleaseHold(ctx, "%0", a, alive); err != nil || released {
		t.Fatalf("A's release: released %v, %v; want the hold handed on", released, err)
	}
	if got := read(); got != "[3.cc.33 =failed][][on]\n" {
		t.Fatalf("after A's release: %q, want C's hold with A's record and no co-holders", got)
	}
	if _, owner, err := ops.LeaveHold(ctx, "%0", "3.cc.33", alive); err != nil || !owner {
		t.Fatalf("C leaving: owner %v, %v; want C the holder", owner, err)
	}
	d := hold("4.dd.b-44") // brief: a co-holder, not a hold taken over
	if d.Ours("4.dd.b-44") {
		t.Fatalf("D's brief hold took C's over: %+v", d)
	}
	if _, owner, err := ops.LeaveHold(ctx, "%0", "4.dd.b-44", alive); err != nil || owner {
		t.Fatalf("D leaving: owner %v, %v; want D gone from the co-holders", owner, err)
	}
	c3, _ := ParseHold("3.cc.33 =failed")
	if released, err := ops.ReleaseHold(ctx, "%0", c3, alive); err != nil || !released {
		t.Fatalf("C's release: released %v, %v", released, err)
	}
	if got := tmuxtest.Run(t, sock, "show-options", "-p", "-t", "%0"); got != "remain-on-exit failed\n" {
		t.Errorf("after every release: pane options %q, want the user's own alone", got)
	}
}

// A hold made for a moment (a launch's start check) is taken over by an
// instance that waits longer, and its maker becomes a co-holder: if it
// waits on after all, the hold comes back to it.
func TestBriefHoldTakenOverKeepsItsMaker(t *testing.T) {
	sock := tmuxtest.Server(t)
	c := New(Config{Binary: tmuxtest.Binary(), SocketPath: sock})
	ops := c.LiveOps(livekey.Key{})
	ctx := context.Background()
	if _, err := ops.HoldOpen(ctx, "%0", "1.aa.b-11", 0); err != nil {
		t.Fatal(err)
	}
	b, err := ops.HoldOpen(ctx, "%0", "2.bb.22", 0)
	if err != nil || !b.Ours("2.bb.22") {
		t.Fatalf("B's hold: %+v %v, want the brief hold taken over", b, err)
	}
	if got := tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "[#{@tmux-mcp-hold}][#{@tmux-mcp-hold-also}]"); got != "[2.bb.22 -][ 1.aa.b-11]\n" {
		t.Fatalf("after the take-over: %q", got)
	}
	if released, err := ops.ReleaseHold(ctx, "%0", b, func(string) bool { return true }); err != nil || released {
		t.Fatalf("B's release: %v %v, want the hold back with A", released, err)
	}
	if got := tmuxtest.Run(t, sock, "display-message", "-p", "-t", "%0", "[#{@tmux-mcp-hold}][#{@tmux-mcp-hold-also}]"); got != "[1.aa.b-11 -][]\n" {
		t.Fatalf("after B's release: %q", got)
	}
}
