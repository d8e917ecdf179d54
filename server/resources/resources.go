package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/live"
)

// URIs of the resources.
const (
	SessionsURI    = "tmux://sessions"
	ScreenTemplate = "tmux://panes/{paneId}/screen"
)

// MaxRate is the most updates a second one pane's subscription sends.
const MaxRate = 4

// ScreenURI is the URI of pane p's screen.
func ScreenURI(p tmuxctl.PaneID) string {
	return "tmux://panes/" + url.PathEscape(string(p)) + "/screen"
}

// Resources serves the resources of one tmux server and their
// subscriptions. Configure it into the server's options, Register it on
// the server, and Close it before the hub.
type Resources struct {
	tmux *tmuxctl.Client
	hub  *live.Hub
	srv  *mcp.Server

	mu       sync.Mutex
	watchers map[string]*watcher // by URI
	closed   bool
	wg       sync.WaitGroup
}

// New returns the resources of c's server, fed by hub.
func New(c *tmuxctl.Client, hub *live.Hub) *Resources {
	return &Resources{tmux: c, hub: hub, watchers: map[string]*watcher{}}
}

// Configure sets the subscription handlers in the server's options.
func (r *Resources) Configure(o *mcp.ServerOptions) {
	o.SubscribeHandler = r.subscribe
	o.UnsubscribeHandler = r.unsubscribe
}

// Register adds the resources to s, which must have been built with
// options r configured.
func (r *Resources) Register(s *mcp.Server) {
	r.srv = s
	s.AddResource(&mcp.Resource{
		URI:         SessionsURI,
		Name:        "sessions",
		Title:       "tmux sessions, windows and panes",
		Description: "Every session with its windows and their panes (ids, names, sizes, commands), as JSON.",
		MIMEType:    "application/json",
	}, r.readSessions)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: ScreenTemplate,
		Name:        "pane-screen",
		Title:       "What a pane shows",
		Description: "The visible screen of a pane as text; paneId as in list_panes, escaped in the URI (%1 is %251). " +
			"Subscribe to be told, at most four times a second, when the pane prints.",
		MIMEType: "text/plain",
	}, r.readScreen)
	r.registerState(s)
}

// A sessionsDoc is the JSON of tmux://sessions.
type sessionsDoc struct {
	Sessions []sessionDoc `json:"sessions"`
}

type sessionDoc struct {
	SessionID string      `json:"sessionId"`
	Name      string      `json:"name"`
	Attached  int         `json:"attachedClients"`
	Windows   []windowDoc `json:"windows"`
}

type windowDoc struct {
	WindowID string    `json:"windowId"`
	Index    int       `json:"index"`
	Name     string    `json:"name"`
	Panes    []paneDoc `json:"panes"`
}

type paneDoc struct {
	PaneID    string `json:"paneId"`
	Index     int    `json:"index"`
	Active    bool   `json:"active"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Command   string `json:"command"`
	Title     string `json:"title"`
	Dead      bool   `json:"dead"`
	ScreenURI string `json:"screenUri"`
}

func (r *Resources) readSessions(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	doc := sessionsDoc{Sessions: []sessionDoc{}}
	sessions, err := r.tmux.ListSessions(ctx)
	if err != nil && !errors.Is(err, tmuxctl.ErrServerGone) {
		return nil, err
	}
	if err == nil {
		panes, err := r.tmux.ListPanes(ctx, tmuxctl.PaneScope{})
		if err != nil && !errors.Is(err, tmuxctl.ErrServerGone) {
			return nil, err
		}
		doc.Sessions = group(sessions, panes)
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: SessionsURI, MIMEType: "application/json", Text: string(data)}}}, nil
}

// group nests panes under their windows under their sessions, in tmux's
// order.
func group(sessions []tmuxctl.Session, panes []tmuxctl.Pane) []sessionDoc {
	out := make([]sessionDoc, 0, len(sessions))
	at := map[tmuxctl.SessionID]int{}
	for _, s := range sessions {
		at[s.ID] = len(out)
		out = append(out, sessionDoc{SessionID: string(s.ID), Name: s.Name, Attached: s.AttachedClients, Windows: []windowDoc{}})
	}
	for _, p := range panes {
		i, ok := at[p.SessionID]
		if !ok {
			continue
		}
		ws := out[i].Windows
		j := len(ws) - 1
		if j < 0 || ws[j].WindowID != string(p.WindowID) {
			ws = append(ws, windowDoc{WindowID: string(p.WindowID), Index: p.WindowIndex, Name: p.WindowName})
			j = len(ws) - 1
		}
		ws[j].Panes = append(ws[j].Panes, paneDoc{
			PaneID: string(p.ID), Index: p.Index, Active: p.Active, Width: p.Width, Height: p.Height,
			Command: p.Command, Title: p.Title, Dead: p.Dead, ScreenURI: ScreenURI(p.ID),
		})
		out[i].Windows = ws
	}
	return out
}

// screenURI is the pattern go-sdk routes a resources/read to readScreen
// by (its template's own regexp); subscribe goes through paneOf too, so
// both take the same URIs. The template admits letters, digits, "-._~"
// and %XX escapes: an unescaped "%" in the pane id is no match.
var screenURI = uritemplate.MustNew(ScreenTemplate).Regexp()

var paneID = regexp.MustCompile(`^%[0-9]+$`)

// paneOf reads the pane id in a screen URI: "%251" (escaped, as the
// template expands) or a bare "1". A URI the template does not match is
// not found, as resources/read finds it.
func paneOf(uri string) (tmuxctl.PaneID, error) {
	m := screenURI.FindStringSubmatch(uri)
	if m == nil {
		return "", notAScreen(uri)
	}
	id, err := url.PathUnescape(m[1])
	if err != nil {
		return "", notAScreen(uri)
	}
	if !strings.HasPrefix(id, "%") {
		id = "%" + id
	}
	if !paneID.MatchString(id) {
		return "", fmt.Errorf("%s: %q is not a pane id such as %%1 (escaped %%251); list_panes gives them", uri, id)
	}
	return tmuxctl.PaneID(id), nil
}

// notAScreen is the error for a URI that is no pane screen: go-sdk's
// "Resource not found" code, in words that say how to write one.
func notAScreen(uri string) error {
	msg := fmt.Sprintf("%s is not a pane screen: want %s", uri, ScreenTemplate)
	if strings.HasPrefix(uri, "tmux://panes/%") && !strings.HasPrefix(uri, "tmux://panes/%25") {
		msg += ", with the pane id's % escaped as %25 (%1 is %251)"
	}
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &jsonrpc.Error{Code: mcp.CodeResourceNotFound, Message: msg, Data: data}
}

func (r *Resources) readScreen(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	p, err := paneOf(req.Params.URI)
	if err != nil {
		return nil, err
	}
	lines, err := r.tmux.Capture(ctx, p, tmuxctl.CaptureOptions{})
	if err != nil {
		var nf *tmuxctl.NotFoundError
		if errors.As(err, &nf) || errors.Is(err, tmuxctl.ErrServerGone) {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		return nil, err
	}
	// Trailing blank rows are the screen's empty bottom, not output.
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: strings.Join(lines, "\n")}}}, nil
}

// subscribe starts following a pane's screen for the session, or refuses
// a URI that is no pane that exists.
func (r *Resources) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if uri == SessionsURI {
		return fmt.Errorf("%s has no updates to subscribe to; subscribe to a pane's screen (%s) or state (%s)", uri, ScreenTemplate, StateTemplate)
	}
	state := stateURI.MatchString(uri)
	p, err := paneOf(uri)
	if state {
		p, err = paneOfState(uri)
	}
	if err != nil {
		return err
	}
	if _, err := r.tmux.Pane(ctx, p); err != nil {
		return fmt.Errorf("pane %s does not exist; list_panes or tmux://sessions gives the panes there are", p)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errors.New("server stopping")
	}
	w := r.watchers[uri]
	if w == nil {
		stream, err := r.hub.Watch(ctx, p)
		if err != nil {
			return fmt.Errorf("following pane %s: %w", p, err)
		}
		// What the pane printed before now is not news; taken before the
		// reply, so nothing printed after it can be missed.
		if state {
			stream.Sync(ctx) // the marks another instance's tap kept
		}
		w = &watcher{r: r, uri: uri, stream: stream, seen: stream.End(), sessions: map[*mcp.ServerSession]bool{}, stop: make(chan struct{})}
		if state {
			w.key = stateKey
			w.seenKey = stateKey(stream)
		}
		r.watchers[uri] = w
		r.wg.Add(1)
		go w.run()
	}
	if !w.sessions[req.Session] {
		w.sessions[req.Session] = true
		// A session that goes without unsubscribing ends its share too.
		r.wg.Add(1)
		go func(ss *mcp.ServerSession) {
			defer r.wg.Done()
			select {
			case <-w.stop:
			case <-waitDone(ss):
				r.drop(uri, ss)
			}
		}(req.Session)
	}
	return nil
}

func waitDone(ss *mcp.ServerSession) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		ss.Wait()
		close(done)
	}()
	return done
}

func (r *Resources) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	r.drop(req.Params.URI, req.Session)
	return nil
}

// drop ends ss's subscription to uri, and the watcher with the last one.
func (r *Resources) drop(uri string, ss *mcp.ServerSession) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.watchers[uri]
	if w == nil || !w.sessions[ss] {
		return
	}
	delete(w.sessions, ss)
	if len(w.sessions) == 0 {
		w.end()
	}
}

// Close ends every subscription and waits for their goroutines. Call it
// before closing the hub.
func (r *Resources) Close() {
	r.mu.Lock()
	r.closed = true
	for _, w := range r.watchers {
		w.end()
	}
	r.mu.Unlock()
	r.wg.Wait()
}

// A watcher follows one pane's stream for every session subscribed to its
// screen.
type watcher struct {
	r        *Resources
	uri      string
	stream   *live.Stream
	seen     int64                       // the stream's end at the last update (run's own)
	sessions map[*mcp.ServerSession]bool // guarded by r.mu
	stop     chan struct{}
	ended    bool // guarded by r.mu
	// key, for a state subscription, says what the subscriber is told
	// about: an update comes when it changes, not when the pane prints.
	key     func(*live.Stream) string
	seenKey string // key at the last update (run's own)
}

// end stops the watcher; r.mu is held.
func (w *watcher) end() {
	if !w.ended {
		w.ended = true
		close(w.stop)
		delete(w.r.watchers, w.uri)
	}
}

// run sends an update when the pane prints, at most MaxRate a second:
// output within 1/MaxRate of the last update waits out the rest of that
// time, and everything printed meanwhile is the same one update. It
// compares stream offsets rather than counting wake-ups, so output that
// came before it first looked is not missed.
func (w *watcher) run() {
	defer w.r.wg.Done()
	release := w.stream.Hold() // a subscribed pane's stream does not expire
	defer release()
	gap := time.Second / MaxRate
	var last time.Time
	for {
		changed := w.stream.Changed()
		if dead, failed := w.stream.State(); dead || failed != "" {
			// The pane went (or its stream did): one last update, so the
			// client reads what is left, and the subscription ends.
			w.notify()
			w.r.mu.Lock()
			w.end()
			w.r.mu.Unlock()
			return
		}
		if w.key != nil {
			if k := w.key(w.stream); k != w.seenKey {
				w.seenKey = k
				w.notify()
			}
			select {
			case <-changed:
			case <-w.stop:
				return
			}
			continue
		}
		if w.stream.End() == w.seen {
			select {
			case <-changed:
			case <-w.stop:
				return
			}
			continue
		}
		if wait := gap - time.Since(last); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-w.stop:
				t.Stop()
				return
			}
		}
		w.seen, last = w.stream.End(), time.Now()
		w.notify()
	}
}

func (w *watcher) notify() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w.r.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: w.uri})
}
