package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server/resources"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// runWatch follows panes and prints one line per event, each as it
// happens, until interrupted: a command a marking shell ran ended (from
// the pane's state resource, whose updates say when), the pane's program
// waits for input (wait_for_input), it exited (wait_for_exit), and with
// --match a pattern was printed
// (wait_for_text, from cursor to cursor, so no output is skipped). The
// first line per pane says it is watched: what comes after it is news.
func runWatch(ctx context.Context, c *Command, env Env) int {
	if len(env.Args) == 0 {
		fmt.Fprintln(env.Stderr, "tmux-mcp watch: usage: tmux-mcp watch [--json] [--match TEXT] PANE… (pane ids such as %1)")
		return exitUsage
	}
	for _, p := range env.Args {
		if !paneIDWord.MatchString(p) {
			fmt.Fprintf(env.Stderr, "tmux-mcp watch: %q is not a pane id such as %%1; `tmux-mcp call list_panes` lists them\n", p)
			return exitUsage
		}
	}
	cfg := env.Config.WithTool("wait_for_exit").WithTool("wait_for_text").WithTool("wait_for_input").WithTool("capture_since")
	updates := make(chan string, 256)
	s, err := connectWith(ctx, cfg, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updates <- req.Params.URI:
			default: // a state is read whole: a dropped update is the next one's
			}
		},
	})
	if err != nil {
		fmt.Fprintf(env.Stderr, "tmux-mcp watch: %v\n", err)
		return exitError
	}
	defer s.Close()
	out := &eventWriter{w: env.Stdout, json: c.json}
	ended := map[string]int64{} // by state URI: the last command seen ended
	from := map[string]any{}    // by pane: where --match starts
	for _, p := range env.Args {
		uri := resources.StateURI(tmuxctl.PaneID(p))
		if err := s.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			fmt.Fprintf(env.Stderr, "tmux-mcp watch: %v\n", err)
			return exitError
		}
		st, err := readState(ctx, s, uri)
		if err != nil {
			fmt.Fprintf(env.Stderr, "tmux-mcp watch: %v\n", err)
			return exitError
		}
		ended[uri] = st.LastEnded
		if c.match != "" {
			// What the pane prints once "watching" is out is matched,
			// however late the first wait_for_text starts.
			from[p] = endCursor(ctx, s, p)
		}
		out.event(p, "watching", "activity", st.Activity)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for _, p := range env.Args {
		wg.Add(1)
		go func() { defer wg.Done(); watchExit(ctx, s, p, out) }()
		wg.Add(1)
		go func() { defer wg.Done(); watchInput(ctx, s, p, out) }()
		if c.match != "" {
			wg.Add(1)
			go func() { defer wg.Done(); watchMatch(ctx, s, p, c.match, from[p], out) }()
		}
	}
	for {
		select {
		case <-ctx.Done():
			return exitOK
		case uri := <-updates:
			st, err := readState(ctx, s, uri)
			if err != nil {
				continue // the pane went: its exit says so
			}
			if st.LastEnded > ended[uri] {
				ended[uri] = st.LastEnded
				status := "unknown"
				if st.LastExitStatus != nil {
					status = strconv.Itoa(*st.LastExitStatus)
				}
				out.event(st.PaneID, "command_ended", "status", status)
			}
		}
	}
}

var paneIDWord = regexp.MustCompile(`^%[0-9]+$`)

func readState(ctx context.Context, s *session, uri string) (resources.State, error) {
	var st resources.State
	res, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err == nil && len(res.Contents) > 0 {
		err = json.Unmarshal([]byte(res.Contents[0].Text), &st)
	}
	return st, err
}

// watchExit waits for pane p's program to exit and says how it ended.
func watchExit(ctx context.Context, s *session, p string, out *eventWriter) {
	for ctx.Err() == nil {
		var r struct {
			Outcome    string  `json:"outcome"`
			ExitStatus *int    `json:"exitStatus"`
			Signal     *string `json:"signal"`
		}
		if !callInto(ctx, s, "wait_for_exit", map[string]any{"paneId": p, "timeoutMs": 3_600_000}, &r) {
			return
		}
		switch r.Outcome {
		case "completed":
			switch {
			case r.Signal != nil:
				out.event(p, "exited", "signal", *r.Signal)
			case r.ExitStatus != nil:
				out.event(p, "exited", "status", strconv.Itoa(*r.ExitStatus))
			default:
				out.event(p, "exited", "status", "unknown")
			}
			return
		case "gone":
			out.event(p, "gone", "", "")
			return
		case "cancelled":
			return
		}
	}
}

// watchInput says each time pane p's program starts waiting for input,
// with its prompt (wait_for_input), then waits for the pane to print again
// (the answer's echo, or more output) before it looks for the next one. A
// shell at a prompt it marks is left to command_ended, which says more.
func watchInput(ctx context.Context, s *session, p string, out *eventWriter) {
	uri := resources.StateURI(tmuxctl.PaneID(p))
	for ctx.Err() == nil {
		var r struct {
			Outcome string  `json:"outcome"`
			Prompt  *string `json:"prompt"`
			Program *string `json:"program"`
			Cursor  *string `json:"cursor"`
		}
		if !callInto(ctx, s, "wait_for_input", map[string]any{"paneId": p, "timeoutMs": 3_600_000}, &r) {
			return
		}
		switch r.Outcome {
		case "timed_out":
			continue
		case "awaiting_input":
		default:
			return // it exited or went: watchExit says so
		}
		if st, err := readState(ctx, s, uri); err != nil || st.Activity != "prompt" {
			prompt := ""
			if r.Prompt != nil {
				prompt = *r.Prompt
			} else if r.Program != nil {
				prompt = *r.Program
			}
			out.event(p, "awaiting_input", "prompt", prompt)
		}
		if r.Cursor == nil {
			return // a pane piped by someone else: no stream to follow
		}
		// The next look starts after the pane prints again.
		if !callInto(ctx, s, "capture_since", map[string]any{"paneId": p, "cursor": *r.Cursor, "waitMs": 3_600_000}, &struct{}{}) {
			return
		}
	}
}

// endCursor returns a cursor at the end of pane p's output so far, or
// nil where there is none (a pane someone else pipes).
func endCursor(ctx context.Context, s *session, p string) any {
	var r struct {
		Cursor any `json:"cursor"`
	}
	if !callInto(ctx, s, "capture_since", map[string]any{"paneId": p, "maxLines": 1}, &r) {
		return nil
	}
	return r.Cursor
}

// watchMatch says each time pane p prints text, from cursor to cursor,
// starting at cursor (nil: as the first wait begins).
func watchMatch(ctx context.Context, s *session, p, text string, cursor any, out *eventWriter) {
	for ctx.Err() == nil {
		args := map[string]any{"paneId": p, "patterns": []string{text}, "timeoutMs": 3_600_000}
		if cursor != nil {
			args["cursor"] = cursor
		}
		var r struct {
			Outcome string  `json:"outcome"`
			Matched *string `json:"matched"`
			Cursor  any     `json:"cursor"`
		}
		if !callInto(ctx, s, "wait_for_text", args, &r) {
			return
		}
		switch r.Outcome {
		case "matched":
			out.event(p, "matched", "text", *r.Matched)
		case "timed_out":
		default:
			return // the pane or its stream went
		}
		if r.Cursor != nil {
			cursor = r.Cursor
		}
	}
}

// callInto calls tool name and decodes its structured result into v; it
// reports false when the call failed (or the watch is over).
func callInto(ctx context.Context, s *session, name string, args map[string]any, v any) bool {
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		return false
	}
	b, err := json.Marshal(res.StructuredContent)
	return err == nil && json.Unmarshal(b, v) == nil
}

// An eventWriter prints one event a line, whole, as it comes.
type eventWriter struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
}

// event prints that pane did what, with one detail (key and value).
func (e *eventWriter) event(pane, what, key, value string) {
	var line string
	if e.json {
		m := map[string]string{"paneId": pane, "event": what}
		if key != "" && value != "" {
			m[key] = value
		}
		b, _ := json.Marshal(m)
		line = string(b)
	} else {
		line = pane + " " + what
		if key != "" && value != "" {
			line += " " + key + "=" + strconv.Quote(value)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintln(e.w, line)
}
