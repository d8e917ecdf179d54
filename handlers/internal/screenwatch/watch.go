package screenwatch

import (
	"context"
	"strings"
	"time"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// How often a Watcher looks: soon after the wait starts and after every
// change, then less often while the pane stays still.
const (
	FirstInterval = 10 * time.Millisecond
	MaxInterval   = 250 * time.Millisecond
)

// Bounds on the history rows a look captures besides the screen: enough
// to see everything that scrolled since the last look at a brisk rate,
// and no more than a result could use.
const (
	minLookback = 8
	maxLookback = 2000
)

// A GrabFunc captures the watched pane: its screen and up to lookback
// rows of history. [tmuxctl.Client.GrabScreen] for one pane is one.
type GrabFunc func(ctx context.Context, lookback int) (tmuxctl.ScreenGrab, error)

// A Watcher looks at one pane's screen again and again and says what is
// new each time. It belongs to one wait and is not safe for concurrent
// use.
type Watcher struct {
	grab     GrabFunc
	last     tmuxctl.ScreenGrab
	interval time.Duration
	lookback int
	sleep    func(ctx context.Context, d time.Duration) bool
}

// Start takes the first look at the pane, which everything later is
// compared with: what it shows is old.
func Start(ctx context.Context, grab GrabFunc) (*Watcher, error) {
	w := &Watcher{grab: grab, interval: FirstInterval, lookback: minLookback, sleep: sleep}
	g, err := grab(ctx, w.lookback)
	if err != nil {
		return nil, err
	}
	w.last = g
	w.lookback = max(minLookback, g.Height)
	return w, nil
}

// Last is the newest look.
func (w *Watcher) Last() tmuxctl.ScreenGrab { return w.last }

// Interval is how long the next call to Next waits before it looks.
func (w *Watcher) Interval() time.Duration { return w.interval }

// An Update is one look and what it found new.
type Update struct {
	tmuxctl.ScreenGrab
	Change
	Text  string // Rows joined with "\n"
	Spans []Span // the fresh rows, as byte ranges of Text
}

// A Span is one fresh row of an Update's Text: the row is Text[Start:End]
// and its new part Text[From:End].
type Span struct{ Start, From, End int }

// Next waits up to d (at most the Watcher's interval), looks again and
// returns what changed since the last look. A wait that ends (ctx) before
// it looks returns ctx's error; a pane that is gone returns tmux's error.
func (w *Watcher) Next(ctx context.Context, d time.Duration) (Update, error) {
	if !w.sleep(ctx, min(d, w.interval)) {
		return Update{}, ctx.Err()
	}
	g, err := w.grab(ctx, w.lookback)
	if err != nil {
		return Update{}, err
	}
	if grew := g.History - w.last.History; grew > w.lookback && w.lookback < maxLookback && !g.Alternate {
		// More scrolled past than this look held: look again, further
		// back, before comparing.
		if again, err := w.grab(ctx, min(grew+g.Height, maxLookback)); err == nil {
			g = again
		}
	}
	u := NewUpdate(w.last, g)
	w.last = g
	if len(u.Fresh) > 0 {
		w.interval = FirstInterval
	} else {
		w.interval = min(2*w.interval, MaxInterval)
	}
	w.lookback = min(maxLookback, max(minLookback, g.Height, 2*u.Shift))
	return u, nil
}

// NewUpdate compares cur with prev and lays out what is fresh in cur.
func NewUpdate(prev, cur tmuxctl.ScreenGrab) Update {
	u := Update{ScreenGrab: cur, Change: Compare(prev, cur), Text: strings.Join(cur.Rows, "\n")}
	starts := make([]int, len(cur.Rows))
	at := 0
	for i, r := range cur.Rows {
		starts[i] = at
		at += len(r) + 1
	}
	for _, f := range u.Fresh {
		s := starts[f.Row]
		u.Spans = append(u.Spans, Span{Start: s, From: s + f.From, End: s + len(cur.Rows[f.Row])})
	}
	return u
}

// FreshText is the fresh rows, whole, each ending in a newline, up to
// byte end of Text (a match's end): what the pane printed since the last
// look, as well as the screen shows it.
func (u Update) FreshText(end int) []byte {
	var b []byte
	for _, s := range u.Spans {
		if s.Start >= end {
			break
		}
		b = append(b, u.Text[s.Start:min(s.End, end)]...)
		if s.End < end {
			b = append(b, '\n')
		}
	}
	return b
}

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// deathNotice starts the line tmux draws in a pane kept by remain-on-exit
// once its program ends (tmux 3.3 and later; 3.4 lets remain-on-exit-format
// change it): tmux's, not the program's, so never a match.
const deathNotice = "Pane is dead"

// WithoutDeathNotice is u without the fresh rows of tmux's notice in a
// dead pane.
func (u Update) WithoutDeathNotice() Update {
	if !u.Dead {
		return u
	}
	spans := u.Spans[:0:0]
	for _, s := range u.Spans {
		if !strings.HasPrefix(u.Text[s.Start:s.End], deathNotice) {
			spans = append(spans, s)
		}
	}
	u.Spans = spans
	return u
}
