package audit

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCollectIDs(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		deep bool
		want []string
	}{
		{`{"paneId":"%1","command":"rm -rf %2"}`, true, []string{"%1"}},
		{`{"sessionId":"$0","windowId":"@3","splitPaneId":"%4"}`, true, []string{"$0", "%4", "@3"}},
		{`{"calls":[{"name":"capture_pane","arguments":{"paneId":"%7"}}]}`, true, []string{"%7"}},
		{`{"paneId":"%1","panes":[{"paneId":"%2"}]}`, false, []string{"%1"}},
		{`{"paneId":"not an id","text":"%3","paneIds":["%5","x"]}`, true, []string{"%5"}},
		{`null`, true, []string{}},
	} {
		got := map[string]bool{}
		collectIDs(json.RawMessage(tc.raw), got, tc.deep)
		if keys := sortedKeys(got); !reflect.DeepEqual(keys, tc.want) {
			t.Errorf("collectIDs(%s, deep=%v) = %q, want %q", tc.raw, tc.deep, keys, tc.want)
		}
	}
}

func TestErrorClass(t *testing.T) {
	for text, want := range map[string]string{
		"pane %9 not found (existing: %0); call list_panes to see them all":                                                                             "not_found",
		"tool swap_pane is in toolset arrange, which this server was not started with; start it with --toolsets default,arrange (or --tools swap_pane)": "toolset",
		"tool kill_pane is disabled: this server runs with --safety=readonly and kill_pane needs --safety=destructive":                                  "tier",
		"no tmux server is running on this socket":                                                                                                      "no_server",
		"something else": "other",
	} {
		if got := errorClass(text); got != want {
			t.Errorf("errorClass(%q) = %q, want %q", text, got, want)
		}
	}
}
