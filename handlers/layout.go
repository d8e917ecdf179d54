package handlers

import (
	"fmt"
	"strconv"
	"strings"
)

// A rect is a pane's cells in its window: columns left..left+width-1 and
// rows top..top+height-1.
type rect struct{ left, top, width, height int }

func (r rect) contains(x, y int) bool {
	return x >= r.left && x < r.left+r.width && y >= r.top && y < r.top+r.height
}

// parseLayout reads a tmux layout string, such as
// "d67e,80x24,0,0{40x24,0,0,0,39x24,41,0,1}", into the place of each pane,
// keyed by pane id ("%0"). A window's layout string is its unzoomed layout
// even while a pane is zoomed, which is why positions come from it.
func parseLayout(s string) (map[string]rect, error) {
	_, body, ok := strings.Cut(s, ",")
	if !ok {
		return nil, fmt.Errorf("layout %q: no checksum", s)
	}
	p := &layoutParser{s: body, panes: map[string]rect{}}
	if err := p.cell(); err != nil {
		return nil, fmt.Errorf("layout %q: %w", s, err)
	}
	if p.i != len(p.s) {
		return nil, fmt.Errorf("layout %q: unexpected %q", s, p.s[p.i:])
	}
	return p.panes, nil
}

type layoutParser struct {
	s     string
	i     int
	panes map[string]rect
}

// cell reads WxH,X,Y followed by ",ID" (a pane) or a {…} or […] list of
// cells (a split).
func (p *layoutParser) cell() error {
	var r rect
	var err error
	if r.width, err = p.number('x'); err != nil {
		return err
	}
	if r.height, err = p.number(','); err != nil {
		return err
	}
	if r.left, err = p.number(','); err != nil {
		return err
	}
	if r.top, err = p.number(0); err != nil {
		return err
	}
	if p.i >= len(p.s) {
		return fmt.Errorf("cell ends early")
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		id, err := p.number(0)
		if err != nil {
			return err
		}
		p.panes["%"+strconv.Itoa(id)] = r
		return nil
	case '{', '[':
		closer := map[byte]byte{'{': '}', '[': ']'}[p.s[p.i]]
		p.i++
		for {
			if err := p.cell(); err != nil {
				return err
			}
			if p.i >= len(p.s) {
				return fmt.Errorf("split not closed")
			}
			c := p.s[p.i]
			p.i++
			if c == closer {
				return nil
			}
			if c != ',' {
				return fmt.Errorf("unexpected %q in a split", c)
			}
		}
	}
	return fmt.Errorf("unexpected %q after a cell", p.s[p.i])
}

// number reads decimal digits, then the byte sep unless sep is 0.
func (p *layoutParser) number(sep byte) (int, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n, err := strconv.Atoi(p.s[start:p.i])
	if err != nil {
		return 0, fmt.Errorf("number expected at %d", start)
	}
	if sep != 0 {
		if p.i >= len(p.s) || p.s[p.i] != sep {
			return 0, fmt.Errorf("%q expected at %d", sep, p.i)
		}
		p.i++
	}
	return n, nil
}
