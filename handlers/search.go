package handlers

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/tmux-mcp/tmux-mcp/gen"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

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
		return nil, fmt.Errorf("pattern is not a valid Go RE2 expression (%v); leave regex false to search for the text as it is", err)
	}
	return re.MatchString, nil
}

// searchScope returns the panes to search, in list_panes order.
func (h *Handlers) searchScope(ctx context.Context, in gen.SearchPanesInput) ([]tmuxctl.Pane, error) {
	if len(in.PaneIds) > 0 && (in.SessionID != nil || in.WindowID != nil) {
		return nil, errors.New("give paneIds, or sessionId and/or windowId, not both: paneIds already says which panes to search")
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
