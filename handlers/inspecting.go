// This file holds the tools of the catalogue family Inspecting: one server,
// session, window or pane in detail; searching (get_*_info, snapshot_pane,
// find_pane_by_position, search_panes, call_read_tools_batch).

package handlers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/clip"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/features"
	"github.com/tmux-mcp/tmux-mcp/handlers/internal/wording"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// GetServerInfo describes the tmux server: version, socket, pid, how much
// it holds, and where this MCP server runs in it.
func (h *Handlers) GetServerInfo(ctx context.Context, _ gen.GetServerInfoInput) (gen.GetServerInfoOutput, error) {
	info, err := h.tmux.ServerInfo(ctx)
	if err != nil {
		return gen.GetServerInfoOutput{}, h.explain(ctx, err)
	}
	v, err := tmuxctl.ParseVersion("tmux " + info.Version)
	if err != nil {
		return gen.GetServerInfoOutput{}, wording.UnreadableVersion(info.Version)
	}
	out := gen.GetServerInfoOutput{
		TmuxVersion: info.Version,
		SocketPath:  info.SocketPath,
		Pid:         info.PID,
		Sessions:    info.Sessions,
		Windows:     info.Windows,
		Panes:       info.Panes,
		Features:    wireFeatures(features.Of(v)),
		Client:      clientOnWire(h.tmux.Transport()),
	}
	if own := h.self(ctx); own.ok {
		id := string(own.pane.ID)
		out.OwnPaneID = &id
	}
	return out, nil
}

// GetSessionInfo describes one session and lists its windows.
func (h *Handlers) GetSessionInfo(ctx context.Context, in gen.GetSessionInfoInput) (gen.GetSessionInfoOutput, error) {
	id := tmuxctl.SessionID(in.SessionID)
	s, err := h.tmux.Session(ctx, id)
	if err != nil {
		return gen.GetSessionInfoOutput{}, h.explain(ctx, err)
	}
	windows, err := h.tmux.ListWindows(ctx, id)
	if err != nil {
		return gen.GetSessionInfoOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	out := gen.GetSessionInfoOutput{
		SessionID:   string(s.ID),
		SessionName: s.Name,
		CreatedUnix: int(s.CreatedUnix),
		Width:       s.Width,
		Height:      s.Height,
		Own:         own.ok && own.pane.SessionID == s.ID,
		Windows:     make([]gen.SessionWindow, len(windows)),
	}
	for i, w := range windows {
		if w.Active {
			out.ActiveWindowID = string(w.ID)
		}
		out.Windows[i] = gen.SessionWindow{
			WindowID:   string(w.ID),
			Index:      w.Index,
			WindowName: w.Name,
			Active:     w.Active,
			Panes:      w.Panes,
			Width:      w.Width,
			Height:     w.Height,
			Zoomed:     w.Zoomed,
		}
	}
	return out, nil
}

// GetWindowInfo describes one window: size, layout, zoom and where each
// of its panes sits.
func (h *Handlers) GetWindowInfo(ctx context.Context, in gen.GetWindowInfoInput) (gen.GetWindowInfoOutput, error) {
	id := tmuxctl.WindowID(in.WindowID)
	w, err := h.tmux.Window(ctx, id)
	if err != nil {
		return gen.GetWindowInfoOutput{}, h.explain(ctx, err)
	}
	panes, err := h.tmux.WindowPanes(ctx, id)
	if err != nil {
		return gen.GetWindowInfoOutput{}, h.explain(ctx, err)
	}
	own := h.self(ctx)
	out := gen.GetWindowInfoOutput{
		WindowID:    string(w.ID),
		WindowName:  w.Name,
		Index:       w.Index,
		SessionID:   string(w.SessionID),
		SessionName: w.SessionName,
		Active:      w.Active,
		Width:       w.Width,
		Height:      w.Height,
		Layout:      w.Layout,
		Zoomed:      w.Zoomed,
		Own:         own.ok && own.pane.WindowID == w.ID,
		Panes:       make([]gen.WindowPane, len(panes)),
	}
	for i, p := range panes {
		if p.Active {
			out.ActivePaneID = string(p.ID)
		}
		out.Panes[i] = gen.WindowPane{
			PaneID:  string(p.ID),
			Index:   p.Index,
			Active:  p.Active,
			Left:    p.Left,
			Top:     p.Top,
			Width:   p.Width,
			Height:  p.Height,
			Command: p.Command,
			Dead:    p.Dead,
		}
	}
	return out, nil
}

// GetPaneInfo describes one pane without its contents.
func (h *Handlers) GetPaneInfo(ctx context.Context, in gen.GetPaneInfoInput) (gen.GetPaneInfoOutput, error) {
	p, err := askWhileCwdUnknown(ctx, func() (tmuxctl.PaneDetail, error) {
		return h.tmux.PaneDetail(ctx, tmuxctl.PaneID(in.PaneID))
	}, func(p tmuxctl.PaneDetail) bool { return h.cwdUnknown(p.Pane) })
	if err != nil {
		return gen.GetPaneInfoOutput{}, h.explain(ctx, err)
	}
	own, inTmux := h.tmux.Self() // p exists, so its id says whether it is ours
	activity, last := h.paneActivityNow(ctx, p.Pane)
	return gen.GetPaneInfoOutput{
		Activity:        activityOf[gen.GetPaneInfoOutputActivity](activity),
		LastExitStatus:  last,
		PaneID:          string(p.ID),
		Index:           p.Index,
		Active:          p.Active,
		WindowID:        string(p.WindowID),
		WindowName:      p.WindowName,
		WindowIndex:     p.WindowIndex,
		SessionID:       string(p.SessionID),
		SessionName:     p.SessionName,
		Pid:             p.PID,
		Command:         p.Command,
		Cwd:             p.Cwd,
		Title:           p.Title,
		Width:           p.Width,
		Height:          p.Height,
		Left:            p.Left,
		Top:             p.Top,
		CursorX:         p.CursorX,
		CursorY:         p.CursorY,
		AlternateScreen: p.AlternateScreen,
		Mode:            nonEmpty(p.Mode),
		ScrollPosition:  p.ScrollPosition,
		HistoryLines:    p.HistorySize,
		HistoryLimit:    p.HistoryLimit,
		Dead:            p.Dead,
		ExitStatus:      p.ExitStatus,
		ExitSignal:      p.ExitSignal,
		Own:             inTmux && own == p.ID,
	}, nil
}

// SnapshotPane returns a pane's screen with its cursor, mode, size and
// scroll position, all read in one tmux command list.
func (h *Handlers) SnapshotPane(ctx context.Context, in gen.SnapshotPaneInput) (gen.SnapshotPaneOutput, error) {
	s, err := h.tmux.Snapshot(ctx, tmuxctl.PaneID(in.PaneID), in.Escapes)
	if err != nil {
		return gen.SnapshotPaneOutput{}, h.explain(ctx, err)
	}
	lines := clip.TrimBlankTail(s.Lines)
	kept := clip.Newest(lines, h.limits.lines(in.MaxLines), h.limits.MaxBytes)
	return intoSnapshotPane(kept.Accounting, gen.SnapshotPaneOutput{
		PaneID:          string(s.ID),
		Width:           s.Width,
		Height:          s.Height,
		CursorX:         s.CursorX,
		CursorY:         s.CursorY,
		AlternateScreen: s.AlternateScreen,
		Mode:            nonEmpty(s.Mode),
		ScrollPosition:  s.ScrollPosition,
		HistoryLines:    s.HistorySize,
		Dead:            s.Dead,
		Text:            kept.Text,
		TotalLines:      len(s.Lines),
	}), nil
}

// nonEmpty returns s for a nullable string field, nil for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// FindPaneByPosition finds the panes across one side of a pane, the pane
// diagonally past one of its corners, or the pane covering a cell of a
// window. Positions come from the window's layout, which tmux keeps
// unzoomed, so the answer is the same whether or not a pane is zoomed.
func (h *Handlers) FindPaneByPosition(ctx context.Context, in gen.FindPaneByPositionInput) (gen.FindPaneByPositionOutput, error) {
	byPane := in.PaneID != nil || in.Side != nil
	byCell := in.WindowID != nil || in.X != nil || in.Y != nil
	switch {
	case byPane && byCell:
		return gen.FindPaneByPositionOutput{}, wording.PositionArgs("both")
	case byPane && (in.PaneID == nil || in.Side == nil):
		return gen.FindPaneByPositionOutput{}, wording.PositionArgs("pane")
	case byCell && (in.WindowID == nil || in.X == nil || in.Y == nil):
		return gen.FindPaneByPositionOutput{}, wording.PositionArgs("cell")
	case !byPane && !byCell:
		return gen.FindPaneByPositionOutput{}, wording.PositionArgs("neither")
	}
	var window tmuxctl.WindowID
	if byPane {
		p, err := h.tmux.Pane(ctx, tmuxctl.PaneID(*in.PaneID))
		if err != nil {
			return gen.FindPaneByPositionOutput{}, h.explain(ctx, err)
		}
		window = p.WindowID
	} else {
		window = tmuxctl.WindowID(*in.WindowID)
	}
	w, err := h.tmux.Window(ctx, window)
	if err != nil {
		return gen.FindPaneByPositionOutput{}, h.explain(ctx, err)
	}
	panes, err := h.tmux.WindowPanes(ctx, window)
	if err != nil {
		return gen.FindPaneByPositionOutput{}, h.explain(ctx, err)
	}
	places, err := tmuxctl.ParseLayout(w.Layout)
	if err != nil {
		return gen.FindPaneByPositionOutput{}, err
	}
	var match func(r tmuxctl.Cell) bool
	if byPane {
		from, ok := places[tmuxctl.PaneID(*in.PaneID)]
		if !ok {
			return gen.FindPaneByPositionOutput{}, wording.NotInLayout(*in.PaneID, window)
		}
		match = beside(from, *in.Side)
	} else {
		if *in.X >= w.Width || *in.Y >= w.Height {
			return gen.FindPaneByPositionOutput{}, wording.CellOutside(*in.X, *in.Y, window, w.Width, w.Height)
		}
		match = func(r tmuxctl.Cell) bool { return r.Contains(*in.X, *in.Y) }
	}
	out := gen.FindPaneByPositionOutput{WindowID: string(window), Zoomed: w.Zoomed, Panes: []gen.FoundPane{}}
	for _, p := range panes {
		r, ok := places[p.ID]
		if !ok || string(p.ID) == deref(in.PaneID) || !match(r) {
			continue
		}
		out.Panes = append(out.Panes, gen.FoundPane{PaneID: string(p.ID), Left: r.Left, Top: r.Top, Width: r.Width, Height: r.Height, Active: p.Active})
	}
	slices.SortFunc(out.Panes, func(a, b gen.FoundPane) int {
		return cmp.Or(cmp.Compare(a.Top, b.Top), cmp.Compare(a.Left, b.Left))
	})
	return out, nil
}

// beside returns a test for the panes on one side of from: across the
// one-cell border on that side and overlapping it along the border, or,
// for a corner, covering the cell diagonally past the corner and its two
// borders.
func beside(from tmuxctl.Cell, side gen.FindPaneByPositionInputSide) func(tmuxctl.Cell) bool {
	right, bottom := from.Left+from.Width, from.Top+from.Height // first cells past the pane
	rows := func(r tmuxctl.Cell) bool { return r.Top < bottom && from.Top < r.Top+r.Height }
	cols := func(r tmuxctl.Cell) bool { return r.Left < right && from.Left < r.Left+r.Width }
	switch side {
	case gen.FindPaneByPositionInputSideLeft:
		return func(r tmuxctl.Cell) bool { return r.Left+r.Width == from.Left-1 && rows(r) }
	case gen.FindPaneByPositionInputSideRight:
		return func(r tmuxctl.Cell) bool { return r.Left == right+1 && rows(r) }
	case gen.FindPaneByPositionInputSideAbove:
		return func(r tmuxctl.Cell) bool { return r.Top+r.Height == from.Top-1 && cols(r) }
	case gen.FindPaneByPositionInputSideBelow:
		return func(r tmuxctl.Cell) bool { return r.Top == bottom+1 && cols(r) }
	case gen.FindPaneByPositionInputSideTopLeft:
		return func(r tmuxctl.Cell) bool { return r.Contains(from.Left-2, from.Top-2) }
	case gen.FindPaneByPositionInputSideTopRight:
		return func(r tmuxctl.Cell) bool { return r.Contains(right+1, from.Top-2) }
	case gen.FindPaneByPositionInputSideBottomLeft:
		return func(r tmuxctl.Cell) bool { return r.Contains(from.Left-2, bottom+1) }
	}
	return func(r tmuxctl.Cell) bool { return r.Contains(right+1, bottom+1) }
}

// SearchPanes looks for a pattern in the screens, and optionally the
// scrollback, of many panes, within bounds on panes, lines read, hits,
// bytes returned and time, and says which bound stopped it. The pattern is
// matched here, in Go; tmux only captures text.
func (h *Handlers) SearchPanes(ctx context.Context, in gen.SearchPanesInput) (gen.SearchPanesOutput, error) {
	match, err := searchPattern(in.Pattern, in.Regex, in.IgnoreCase)
	if err != nil {
		return gen.SearchPanesOutput{}, err
	}
	panes, err := h.searchScope(ctx, in)
	if err != nil {
		return gen.SearchPanesOutput{}, err
	}
	maxHits := h.limits.lines(in.MaxHits)
	sctx, cancel := h.waitContext(ctx, h.limits.clampMs(in.TimeoutMs))
	defer cancel()

	out := gen.SearchPanesOutput{Hits: []gen.SearchHit{}, PanesInScope: len(panes), StoppedBy: gen.SearchPanesOutputStoppedByNone}
	stop := func(by gen.SearchPanesOutputStoppedBy) gen.SearchPanesOutput {
		out.StoppedBy = by
		return out
	}
	for i, p := range panes {
		if i == in.MaxPanes {
			return stop(gen.SearchPanesOutputStoppedByPanes), nil
		}
		if sctx.Err() != nil {
			return stop(gen.SearchPanesOutputStoppedByTime), nil
		}
		budget := in.MaxLines - out.LinesSearched
		if budget <= 0 {
			return stop(gen.SearchPanesOutputStoppedByLines), nil
		}
		// The newest lines first: the bottom of the screen, then the
		// scrollback nearest to it.
		first, cut := 0, false
		switch {
		case budget < p.Height:
			first, cut = p.Height-budget, true
		case in.Scrollback:
			back := min(p.HistorySize, budget-p.Height)
			first, cut = -back, back < p.HistorySize
		}
		lines, err := h.tmux.Capture(sctx, p.ID, tmuxctl.CaptureOptions{Start: &first})
		var nf *tmuxctl.NotFoundError
		switch {
		case errors.As(err, &nf):
			continue // closed since it was listed
		case err != nil && ctx.Err() == nil && sctx.Err() != nil:
			return stop(gen.SearchPanesOutputStoppedByTime), nil
		case err != nil:
			return gen.SearchPanesOutput{}, h.explain(ctx, err)
		}
		out.PanesSearched++
		out.LinesSearched += len(lines)
		for j, line := range lines {
			if !match(line) {
				continue
			}
			if len(out.Hits) == maxHits {
				return stop(gen.SearchPanesOutputStoppedByHits), nil
			}
			text := strings.ToValidUTF8(line, "\uFFFD")
			if out.ReturnedBytes+len(text) > h.limits.MaxBytes {
				return stop(gen.SearchPanesOutputStoppedByBytes), nil
			}
			out.ReturnedBytes += len(text)
			out.Hits = append(out.Hits, gen.SearchHit{PaneID: string(p.ID), Line: first + j, Text: text})
		}
		if cut {
			return stop(gen.SearchPanesOutputStoppedByLines), nil
		}
	}
	return out, nil
}

// searchPattern compiles what search_panes matches each line against.
func searchPattern(pattern string, regex, ignoreCase bool) (func(string) bool, error) {
	expr := pattern
	if !regex {
		expr = regexp.QuoteMeta(pattern)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, wording.BadSearchPattern(err)
	}
	return re.MatchString, nil
}

// searchScope returns the panes to search, in list_panes order.
func (h *Handlers) searchScope(ctx context.Context, in gen.SearchPanesInput) ([]tmuxctl.Pane, error) {
	if len(in.PaneIds) > 0 && (in.SessionID != nil || in.WindowID != nil) {
		return nil, wording.SearchScopeTwice()
	}
	panes, err := h.tmux.ListPanes(ctx, tmuxctl.PaneScope{
		Session: tmuxctl.SessionID(deref(in.SessionID)),
		Window:  tmuxctl.WindowID(deref(in.WindowID)),
	})
	if err != nil {
		return nil, h.explain(ctx, err)
	}
	if len(in.PaneIds) == 0 {
		return panes, nil
	}
	want := map[string]bool{}
	for _, id := range in.PaneIds {
		want[id] = true
	}
	var chosen []tmuxctl.Pane
	for _, p := range panes {
		if want[string(p.ID)] {
			chosen = append(chosen, p)
			delete(want, string(p.ID))
		}
	}
	for _, id := range in.PaneIds {
		if want[id] {
			return nil, h.explain(ctx, &tmuxctl.NotFoundError{Kind: "pane", ID: id})
		}
	}
	return chosen, nil
}

// A ReadTool runs one read-only tool on raw JSON arguments, checking them
// against the tool's input schema and its structured result against its
// output schema, as a tools/call would.
type ReadTool func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)

// BatchTool is the name of call_read_tools_batch, which never calls itself.
const BatchTool = "call_read_tools_batch"

// SetReadTools gives call_read_tools_batch the tools it may call: the
// catalogue's read-only tools, by name. The catalogue sets them when it
// registers the tools.
func (h *Handlers) SetReadTools(tools map[string]ReadTool) {
	h.readTools = tools
}

// CallReadToolsBatch runs several read-only tools one after another and
// returns a result or an error for each. Calls stop being run once the
// batch has used the wait ceiling or its results have reached the byte
// ceiling; those rows say so.
func (h *Handlers) CallReadToolsBatch(ctx context.Context, in gen.CallReadToolsBatchInput) (gen.CallReadToolsBatchOutput, error) {
	bctx, cancel := h.waitContext(ctx, h.limits.WaitCeiling)
	defer cancel()
	out := gen.CallReadToolsBatchOutput{Results: make([]gen.ReadToolResult, len(in.Calls))}
	size := 0
	for i, call := range in.Calls {
		row := gen.ReadToolResult{Index: i, Tool: call.Tool}
		var err error
		switch {
		case ctx.Err() != nil:
			return gen.CallReadToolsBatchOutput{}, ctx.Err()
		case bctx.Err() != nil:
			err = wording.BatchOverTime(h.limits.WaitCeiling)
		case size >= h.limits.MaxBytes:
			err = wording.BatchOverBytes(h.limits.MaxBytes)
		default:
			var result gen.CallReadToolsBatchOutputResultsElemResult
			result, err = h.callReadTool(bctx, call)
			if err == nil {
				row.Ok, row.Result = true, &result
				b, _ := json.Marshal(result)
				size += len(b)
			}
		}
		if err != nil {
			msg := err.Error()
			row.Error = &msg
			out.Failed++
		} else {
			out.Succeeded++
		}
		out.Results[i] = row
	}
	return out, nil
}

func (h *Handlers) callReadTool(ctx context.Context, call gen.ReadToolCall) (gen.CallReadToolsBatchOutputResultsElemResult, error) {
	tool, ok := h.readTools[call.Tool]
	if !ok {
		if call.Tool == BatchTool {
			return nil, wording.BatchSelf(BatchTool)
		}
		return nil, wording.BatchNotReadOnly(call.Tool, slices.Sorted(maps.Keys(h.readTools)))
	}
	args := call.Arguments
	if args == nil {
		args = gen.CallReadToolsBatchInputCallsElemArguments{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	res, err := tool(ctx, raw)
	if err != nil {
		return nil, err
	}
	var result gen.CallReadToolsBatchOutputResultsElemResult
	if err := json.Unmarshal(res, &result); err != nil {
		return nil, wording.BatchNotObject(call.Tool, err)
	}
	return result, nil
}
