package resources

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/frame"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// StateTemplate is the template of a pane's state: what it does, from its
// shell's prompt marks (OSC 133) and its death.
const StateTemplate = "tmux://panes/{paneId}/state"

// StateURI is the URI of pane p's state.
func StateURI(p tmuxctl.PaneID) string {
	return "tmux://panes/" + url.PathEscape(string(p)) + "/state"
}

var stateURI = regexp.MustCompile(`^tmux://panes/([^/]+)/state$`)

// A State is the JSON of a pane's state resource. Fields not known are
// left out.
type State struct {
	PaneID string `json:"paneId"`
	// Activity is "prompt", "running" or "dead" (see
	// live.ShellState.Activity); absent while the shell has marked
	// nothing.
	Activity string `json:"activity,omitempty"`
	// Commands counts the marked commands begun since tmux-mcp watched
	// the pane; LastExitStatus is the last ended one's status.
	Commands       int64 `json:"commands"`
	LastExitStatus *int  `json:"lastExitStatus,omitempty"`
	LastEnded      int64 `json:"lastEnded,omitempty"` // the number of the last command that ended
}

// stateOf reads pane p's state from its stream.
func stateOf(p tmuxctl.PaneID, s *live.Stream) State {
	st := s.Shell()
	out := State{PaneID: string(p), Activity: st.Activity(), Commands: st.Seq}
	if st.Last != nil {
		out.LastEnded = st.Last.Seq
		if st.Last.Status != frame.NoStatus {
			status := st.Last.Status
			out.LastExitStatus = &status
		}
	}
	return out
}

func (r *Resources) registerState(s *mcp.Server) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: StateTemplate,
		Name:        "pane-state",
		Title:       "What a pane is doing",
		Description: "A pane's activity (prompt, running, dead) and its last command's exit status, from the prompt marks " +
			"(OSC 133) its shell prints, as JSON. Subscribe to be told when they change.",
		MIMEType: "application/json",
	}, r.readState)
}

func (r *Resources) readState(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	p, err := paneOfState(req.Params.URI)
	if err != nil {
		return nil, err
	}
	s := r.hub.Watching(p)
	if s == nil {
		if _, err := r.tmux.Pane(ctx, p); err != nil {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		if s, err = r.hub.Watch(ctx, p); err != nil {
			return nil, fmt.Errorf("following pane %s: %w", p, err)
		}
		s.Sync(ctx)
	}
	b, err := json.Marshal(stateOf(p, s))
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
}

// paneOfState reads the pane id in a state URI, as paneOf does.
func paneOfState(uri string) (tmuxctl.PaneID, error) {
	m := stateURI.FindStringSubmatch(uri)
	if m == nil {
		return "", fmt.Errorf("%s is not a pane state: want %s", uri, StateTemplate)
	}
	return paneOf("tmux://panes/" + m[1] + "/screen")
}

// stateKey is what a state subscriber is told about when it changes.
func stateKey(s *live.Stream) string {
	st := s.Shell()
	last := int64(0)
	if st.Last != nil {
		last = st.Last.Seq
	}
	return fmt.Sprintf("%s/%d/%d", st.Activity(), st.Seq, last)
}
