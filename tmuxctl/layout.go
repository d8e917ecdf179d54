package tmuxctl

import (
	"context"
	"fmt"
	"strconv"
)

// Layouts are checked here before tmux sees them: tmux 3.3a's server
// crashes (measured: "server exited unexpectedly", every session gone) on
// a select-layout argument that is neither a preset nor starts with a hex
// checksum — "vertical", "#{pane_id}", a typo. So only exact preset names
// and well-formed layout strings with a correct checksum reach tmux.

// layoutPresets are tmux's preset layouts and the version that has each.
var layoutPresets = map[string][2]int{
	"even-horizontal":          {3, 2},
	"even-vertical":            {3, 2},
	"main-horizontal":          {3, 2},
	"main-vertical":            {3, 2},
	"tiled":                    {3, 2},
	"main-horizontal-mirrored": {3, 5},
	"main-vertical-mirrored":   {3, 5},
}

// A LayoutError says why a layout was not passed to tmux.
type LayoutError struct{ Reason string }

func (e *LayoutError) Error() string { return e.Reason }

// ApplyLayout applies a preset layout name or a layout string to window w
// (which has panes panes and is width×height), after checking it as
// described above.
func (c *Client) ApplyLayout(ctx context.Context, w WindowID, panes, width, height int, layout string) error {
	if v, ok := layoutPresets[layout]; ok {
		if !c.atLeast(ctx, v[0], v[1]) {
			return &LayoutError{fmt.Sprintf("preset %s needs tmux %d.%d or later", layout, v[0], v[1])}
		}
		return c.selectLayout(ctx, w, layout)
	}
	cells, err := parseLayout(layout)
	if err != nil {
		return &LayoutError{fmt.Sprintf("%q is neither a preset (even-horizontal, even-vertical, main-horizontal, main-vertical, tiled; main-horizontal-mirrored, main-vertical-mirrored from tmux 3.5) nor a layout string: %v", truncate(layout, 80), err)}
	}
	if cells != panes {
		return &LayoutError{fmt.Sprintf("the layout string has %d panes and window %s has %d", cells, w, panes)}
	}
	// tmux resizes the window to the layout's own size: a layout of
	// another size would resize the window, which this tool must not do.
	var lw, lh int
	if _, err := fmt.Sscanf(layout[5:], "%dx%d,", &lw, &lh); err != nil || lw != width || lh != height {
		return &LayoutError{fmt.Sprintf("the layout string is for a %dx%d window and window %s is %dx%d; resize_window first, or use a layout string read from this window (get_window_info)", lw, lh, w, width, height)}
	}
	return c.selectLayout(ctx, w, layout)
}

// A Cell is where a pane sits in its window: columns Left..Left+Width-1
// and rows Top..Top+Height-1.
type Cell struct{ Left, Top, Width, Height int }

// Contains reports whether the cell at column x, row y is in c.
func (c Cell) Contains(x, y int) bool {
	return x >= c.Left && x < c.Left+c.Width && y >= c.Top && y < c.Top+c.Height
}

// ParseLayout reads a window's layout string, such as
// "d67e,80x24,0,0{40x24,0,0,0,39x24,41,0,1}", into the cell of each pane.
// A window's layout string is its unzoomed layout even while a pane is
// zoomed, which is why positions come from it.
func ParseLayout(s string) (map[PaneID]Cell, error) {
	cells := map[PaneID]Cell{}
	if _, err := checkLayout(s, cells); err != nil {
		return nil, fmt.Errorf("layout %q: %w", truncate(s, 80), err)
	}
	return cells, nil
}

// parseLayout checks a layout string and returns how many panes it lays out.
func parseLayout(s string) (int, error) { return checkLayout(s, nil) }

// checkLayout checks a layout string as tmux writes it (checksum, then
// cells: WxH,X,Y then ",id" for a pane or {…} / […] around child cells),
// records each pane's cell in cells when it is not nil, and returns how
// many panes it lays out.
func checkLayout(s string, cells map[PaneID]Cell) (int, error) {
	if len(s) < 6 || s[4] != ',' {
		return 0, fmt.Errorf("want a 4-digit hex checksum and a comma first")
	}
	sum, err := strconv.ParseUint(s[:4], 16, 16)
	if err != nil {
		return 0, fmt.Errorf("want a 4-digit hex checksum first")
	}
	body := s[5:]
	if uint16(sum) != layoutChecksum(body) {
		return 0, fmt.Errorf("checksum %s does not match (want %04x)", s[:4], layoutChecksum(body))
	}
	p := layoutParser{s: body, cells: cells}
	panes, err := p.cell(0)
	if err == nil && p.i != len(p.s) {
		err = fmt.Errorf("unexpected %q at byte %d", p.s[p.i], p.i+5)
	}
	return panes, err
}

// layoutChecksum is tmux's layout_checksum: a 16-bit rotate-and-add.
func layoutChecksum(s string) uint16 {
	var sum uint16
	for i := 0; i < len(s); i++ {
		sum = (sum >> 1) + ((sum & 1) << 15)
		sum += uint16(s[i])
	}
	return sum
}

type layoutParser struct {
	s     string
	i     int
	cells map[PaneID]Cell // nil: only count
}

const maxLayoutDepth = 64

func (p *layoutParser) cell(depth int) (int, error) {
	if depth > maxLayoutDepth {
		return 0, fmt.Errorf("nested deeper than %d", maxLayoutDepth)
	}
	var dims [4]int // width, height, left, top
	for i, sep := range []byte{'x', ',', ',', 0} {
		n, err := p.number()
		if err != nil {
			return 0, err
		}
		dims[i] = n
		if sep == 0 {
			break
		}
		if err := p.expect(sep); err != nil {
			return 0, err
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == '{' || p.s[p.i] == '[') {
		closing := byte('}')
		if p.s[p.i] == '[' {
			closing = ']'
		}
		p.i++
		total := 0
		for {
			n, err := p.cell(depth + 1)
			if err != nil {
				return 0, err
			}
			total += n
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			return total, p.expect(closing)
		}
	}
	if err := p.expect(','); err != nil {
		return 0, err
	}
	id, err := p.number()
	if err == nil && p.cells != nil {
		p.cells[PaneID("%"+strconv.Itoa(id))] = Cell{Left: dims[2], Top: dims[3], Width: dims[0], Height: dims[1]}
	}
	return 1, err
}

func (p *layoutParser) number() (int, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if p.i == start || p.i-start > 6 {
		return 0, fmt.Errorf("want a number of at most 6 digits at byte %d", start+5)
	}
	return strconv.Atoi(p.s[start:p.i])
}

func (p *layoutParser) expect(b byte) error {
	if p.i >= len(p.s) || p.s[p.i] != b {
		return fmt.Errorf("want %q at byte %d", b, p.i+5)
	}
	p.i++
	return nil
}
