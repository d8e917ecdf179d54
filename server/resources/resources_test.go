package resources_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/server"
	"github.com/tmux-mcp/tmux-mcp/server/resources"
	"github.com/tmux-mcp/tmux-mcp/tmuxctl/tmuxtest"
)

// connect builds the whole server on a private tmux and connects a client
// whose resource updates arrive on the returned channel.
func connect(t *testing.T, sock string) (*mcp.ClientSession, <-chan string) {
	t.Helper()
	cfg := server.Defaults()
	cfg.Version, cfg.TmuxBinary, cfg.SocketPath = "test", tmuxtest.Binary(), sock
	cfg.Safety = "readonly" // reading and subscribing change nothing
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	updates := make(chan string, 1000)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := srv.MCP.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, updates
}

func TestListed(t *testing.T) {
	cs, _ := connect(t, tmuxtest.Server(t))
	ctx := context.Background()
	if caps := cs.InitializeResult().Capabilities; caps.Resources == nil || !caps.Resources.Subscribe {
		t.Fatalf("resources capability %+v: want subscribe", caps.Resources)
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != resources.SessionsURI {
		t.Fatalf("resources/list: %v %+v", err, list)
	}
	tl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tl.ResourceTemplates) != 2 {
		t.Fatalf("resources/templates/list: %v %+v", err, tl)
	}
	got := map[string]bool{tl.ResourceTemplates[0].URITemplate: true, tl.ResourceTemplates[1].URITemplate: true}
	if !got[resources.ScreenTemplate] || !got[resources.StateTemplate] {
		t.Fatalf("resources/templates/list: %v, want %s and %s", got, resources.ScreenTemplate, resources.StateTemplate)
	}
}

func TestSessions(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "cat")
	tmuxtest.Run(t, sock, "new-window", "-d", "-n", "second", "-t", "main:", "cat")
	tmuxtest.Run(t, sock, "new-session", "-d", "-s", "other", "cat")
	cs, _ := connect(t, sock)
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: resources.SessionsURI})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sessions []struct {
			SessionID, Name string
			Windows         []struct {
				WindowID, Name string
				Panes          []struct{ PaneID, ScreenURI string }
			}
		}
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &doc); err != nil {
		t.Fatalf("%v: %s", err, res.Contents[0].Text)
	}
	var got []string
	for _, s := range doc.Sessions {
		for _, w := range s.Windows {
			for _, p := range w.Panes {
				got = append(got, s.Name+"/"+w.WindowID+"/"+p.PaneID+"="+p.ScreenURI)
			}
		}
	}
	want := "main/@0/%0=tmux://panes/%250/screen main/@0/%1=tmux://panes/%251/screen " +
		"main/@1/%2=tmux://panes/%252/screen other/@2/%3=tmux://panes/%253/screen"
	if strings.Join(got, " ") != want {
		t.Fatalf("sessions/windows/panes:\n got %s\nwant %s\n%s", strings.Join(got, " "), want, res.Contents[0].Text)
	}
	if res.Contents[0].MIMEType != "application/json" {
		t.Errorf("MIME type %q", res.Contents[0].MIMEType)
	}
}

func TestScreen(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "respawn-pane", "-k", "-t", "%0", "printf 'first line\\nsecond line\\n'; exec cat")
	cs, _ := connect(t, sock)
	ctx := context.Background()
	for _, uri := range []string{"tmux://panes/%250/screen", "tmux://panes/0/screen"} {
		var text string
		// printf may not have run yet; each read is a fresh capture.
		for i := 0; i < 100 && !strings.Contains(text, "second line"); i++ {
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatalf("%s: %v", uri, err)
			}
			text = res.Contents[0].Text
			if !strings.Contains(text, "second line") {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if text != "first line\nsecond line" {
			t.Fatalf("%s: %q", uri, text)
		}
	}
	for _, uri := range []string{"tmux://panes/%259/screen", "tmux://panes/%25x/screen"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s: read a pane that does not exist", uri)
		}
	}
}

func TestSubscribe(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "cat")
	cs, updates := connect(t, sock)
	ctx := context.Background()
	uri := resources.ScreenURI("%1")
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: resources.ScreenURI("%9")}); err == nil || !strings.Contains(err.Error(), "pane %9 does not exist") {
		t.Fatalf("subscribing to a missing pane: %v", err)
	}
	// cat echoes what is typed: the pane prints, and an update comes.
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "hello", "Enter")
	select {
	case got := <-updates:
		if got != uri {
			t.Fatalf("update for %s, want %s", got, uri)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no update after the pane printed")
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || !strings.Contains(res.Contents[0].Text, "hello") {
		t.Fatalf("screen after the update: %v %+v", err, res)
	}

	// A flood of output: at most four updates a second.
	for len(updates) > 0 {
		<-updates
	}
	start := time.Now()
	sent := 0
	for time.Since(start) < 1200*time.Millisecond {
		tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "line", "Enter")
		sent++
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the last coalesced update; not a measurement
	elapsed := time.Since(start)
	n := len(updates)
	if limit := int(elapsed.Seconds()*resources.MaxRate) + 2; n > limit || n == 0 {
		t.Fatalf("%d updates in %v of output, want 1 to %d", n, elapsed, limit)
	}
	t.Logf("%d updates for %d lines in %v of output", n, sent, elapsed)

	// Unsubscribed: no more updates.
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	for len(updates) > 0 {
		<-updates
	}
	tmuxtest.Run(t, sock, "send-keys", "-t", "%1", "after", "Enter")
	time.Sleep(500 * time.Millisecond) // an update would come within 250 ms
	if len(updates) > 0 {
		t.Fatal("an update after unsubscribing")
	}
}

// The subscription ends with the pane: one last update, then the screen is
// gone.
func TestSubscriptionEndsWithPane(t *testing.T) {
	sock := tmuxtest.Server(t)
	tmuxtest.Run(t, sock, "split-window", "-d", "-t", "%0", "cat")
	cs, updates := connect(t, sock)
	ctx := context.Background()
	uri := resources.ScreenURI("%1")
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	tmuxtest.Run(t, sock, "kill-pane", "-t", "%1")
	select {
	case got := <-updates:
		if got != uri {
			t.Fatalf("update for %s", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no update when the pane went")
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
		t.Fatal("the screen of a killed pane still reads")
	}
}

// resources/read and resources/subscribe take the same URIs: go-sdk
// routes a read by the template, and a subscription that the read would
// not find is refused as not found too (an unescaped % was once taken).
func TestReadAndSubscribeAgree(t *testing.T) {
	sock := tmuxtest.Server(t)
	cs, _ := connect(t, sock)
	ctx := context.Background()
	for _, c := range []struct {
		uri string
		ok  bool
	}{
		{"tmux://panes/%250/screen", true},
		{"tmux://panes/0/screen", true},
		{"tmux://panes/%25%30/screen", true},
		{"tmux://panes/%0/screen", false},
		{"tmux://panes/%/screen", false},
		{"tmux://panes/%25/screen", false},
		{"tmux://panes//screen", false},
		{"tmux://panes/%259/screen", false},
		{"tmux://panes/0/x/screen", false},
		{"tmux://panes/0%2Fx/screen", false},
		{"tmux://panes/%250/screen/", false},
	} {
		_, rerr := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.uri})
		serr := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: c.uri})
		if (rerr == nil) != c.ok || (serr == nil) != c.ok {
			t.Errorf("%s: read: %v; subscribe: %v; want both to %s", c.uri, rerr, serr, map[bool]string{true: "succeed", false: "fail"}[c.ok])
		}
		if serr == nil {
			cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: c.uri})
		}
	}
	// The refusal says how to write the pane id.
	err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "tmux://panes/%0/screen"})
	if err == nil || !strings.Contains(err.Error(), "escaped as %25") {
		t.Fatalf("subscribing with an unescaped %%: %v", err)
	}
}
