package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
)

func TestRenderResult(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want string
	}{{
		name: "a command's output follows the header verbatim; nothing cut, no accounting",
		in: `{"cursor":"ltxc1.ab.12","droppedLines":0,"effectiveTimeoutMs":30000,"exitStatus":7,"missedBytes":0,` +
			`"omittedBytes":0,"outcome":"completed","output":"say \"hi\"\n\tindented\n","outputComplete":true,` +
			`"paneId":"%0","returnedBytes":18,"shell":"dash","stillRunning":false}`,
		want: "outcome: completed\nexitStatus: 7\npaneId: %0\ncursor: ltxc1.ab.12\n--- output ---\nsay \"hi\"\n\tindented\n",
	}, {
		name: "when something was cut, the non-zero counts and what was returned",
		in: `{"droppedLines":100,"missedBytes":0,"omittedBytes":292,"outcome":"completed","output":"101\n",` +
			`"returnedBytes":4,"screenClamped":false,"exitStatus":null,"signal":null}`,
		want: "outcome: completed\ndroppedLines: 100\nomittedBytes: 292\nreturnedBytes: 4\n--- output ---\n101\n",
	}, {
		name: "a clamp flag alone counts as a cut",
		in:   `{"paneId":"%1","rangeClamped":true,"byteClamped":false,"returnedBytes":3,"text":"abc"}`,
		want: "paneId: %1\nrangeClamped: true\nreturnedBytes: 3\n--- text ---\nabc",
	}, {
		name: "empty pane text is left out beside other pane text; strings that hide something are quoted",
		in:   `{"matched":"$ ","output":"","screen":"a\nb","outcome":"timed_out","sessionName":""}`,
		want: "outcome: timed_out\nmatched: \"$ \"\nsessionName: \"\"\n--- screen ---\na\nb",
	}, {
		name: "empty pane text alone is said",
		in:   `{"outcome":"completed","output":"","exitStatus":0}`,
		want: "outcome: completed\nexitStatus: 0\noutput: \"\"",
	}, {
		name: "two text fields: the first ends on a line of its own",
		in:   `{"output":"no newline","screen":"shown"}`,
		want: "--- output ---\nno newline\n--- screen ---\nshown",
	}, {
		name: "lists of objects are rows; lists of words are words",
		in: `{"panes":[{"id":"%0","title":"a b","pid":12,"exitStatus":null,"dead":false},{"id":"%1","title":"x=y","pid":13,"dead":true}],` +
			`"paneIds":["%0","%1"],"none":[]}`,
		want: "paneIds: %0 %1\nnone: []\npanes: 2\n- id=%0 pid=12 title=\"a b\"\n- id=%1 dead=true pid=13 title=\"x=y\"",
	}, {
		name: "what every row shares is said once; a single row keeps all",
		in: `{"panes":[{"paneId":"%0","windowId":"@1","width":80,"dead":false},{"paneId":"%1","windowId":"@1","width":80,"dead":false}],` +
			`"windows":[{"windowId":"@1","width":80}]}`,
		want: "panes: 2 (each windowId=@1 width=80)\n- paneId=%0\n- paneId=%1\nwindows: 1\n- windowId=@1 width=80",
	}, {
		name: "a multi-line match stays in the header, quoted",
		in:   `{"outcome":"matched","matched":"42\n>>> ","output":"print(42)\n42\n>>> "}`,
		want: "outcome: matched\nmatched: \"42\\n>>> \"\n--- output ---\nprint(42)\n42\n>>> ",
	}, {
		name: "a state the outcome implies is left out; one that is news is said",
		in:   `{"outcome":"timed_out","state":"running","stillRunning":true,"shell":"bash","output":""}`,
		want: "outcome: timed_out\noutput: \"\"\nstate: running",
	}} {
		t.Run(c.name, func(t *testing.T) {
			got, err := RenderJSON([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestRenderForSaysOnlyAClampedWait(t *testing.T) {
	waited := `{"outcome":"timed_out","effectiveTimeoutMs":50000,"paneId":"%0"}`
	started := `{"running":true,"effectiveWaitMs":0,"paneId":"%0"}`
	for _, c := range []struct{ out, request, want string }{
		{waited, `{"timeoutMs":50000,"paneId":"%0"}`, "outcome: timed_out\npaneId: %0"},
		{waited, `{"timeoutMs":90000,"paneId":"%0"}`, "outcome: timed_out\npaneId: %0\neffectiveTimeoutMs: 50000"},
		// capture_since answers waitMs with effectiveTimeoutMs (the seed contract).
		{waited, `{"paneId":"%0","waitMs":50000}`, "outcome: timed_out\npaneId: %0"},
		{waited, `{"paneId":"%0","waitMs":60000}`, "outcome: timed_out\npaneId: %0\neffectiveTimeoutMs: 50000"},
		{started, `{"paneId":"%0","waitMs":0}`, "paneId: %0\nrunning: true"},
		{started, `{"paneId":"%0","waitMs":5}`, "paneId: %0\neffectiveWaitMs: 0\nrunning: true"},
	} {
		got, err := RenderFor([]byte(c.out), []byte(c.request))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%s for request %s: got\n%s\nwant\n%s", c.out, c.request, got, c.want)
		}
	}
}

// The text block of a tools/call quotes the handler's typed arguments
// (askedOf), not JSON: the same lines as RenderFor, unset arguments
// included.
func TestRenderSaysAClampedWaitOfTypedArguments(t *testing.T) {
	waited := map[string]any{"outcome": "timed_out", "effectiveTimeoutMs": 50000.0, "paneId": "%0"}
	asked, clamped := 50000, 90000
	for _, c := range []struct {
		in   any
		want string
	}{
		{gen.WaitForTextInput{PaneID: "%0", TimeoutMs: &asked}, "outcome: timed_out\npaneId: %0"},
		{gen.WaitForTextInput{PaneID: "%0", TimeoutMs: &clamped}, "outcome: timed_out\npaneId: %0\neffectiveTimeoutMs: 50000"},
		{gen.WaitForTextInput{PaneID: "%0"}, "outcome: timed_out\npaneId: %0"},
		{gen.CaptureSinceInput{PaneID: "%0", WaitMs: &clamped}, "outcome: timed_out\npaneId: %0\neffectiveTimeoutMs: 50000"},
	} {
		if got := render(waited, askedOf(waited, c.in)); got != c.want {
			t.Errorf("%+v: got\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
}

// TestRenderedSizeOfBuildLog prints the size of a run_shell_command result
// holding a 200-line build log in both text forms: the JSON the text block
// used to hold, and the rendering. It asserts only that both hold the log.
//
//	go test -run TestRenderedSizeOfBuildLog -v ./tools
func TestRenderedSizeOfBuildLog(t *testing.T) {
	var log strings.Builder
	for i := 1; i <= 200; i++ {
		switch {
		case i%25 == 0:
			fmt.Fprintf(&log, "pkg/store/file_%03d.go:%d:7: warning: \"ctx\" declared and not used\n", i, 40+i)
		case i%10 == 0:
			fmt.Fprintf(&log, "ok  \tgithub.com/acme/app/pkg/mod%03d\t0.%03ds\n", i, i*7%1000)
		default:
			fmt.Fprintf(&log, "[%3d/200] CC src/module_%03d/main.c -o build/obj/module_%03d.o\n", i, i, i)
		}
	}
	out := gen.RunShellCommandOutput{
		Cursor: ptr("ltxc1.0123456789abcdef0123456789abcdef.48213"), EffectiveTimeoutMs: 30000,
		ExitStatus: ptr(0), Outcome: gen.RunShellCommandOutputOutcomeCompleted, Output: log.String(),
		OutputComplete: true, PaneID: "%3", ReturnedBytes: log.Len(), Shell: "bash",
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	text, err := RenderJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	// On the wire each text block is itself a JSON string: the JSON form
	// escapes its escapes again.
	wireJSON, _ := json.Marshal(string(data))
	wireText, _ := json.Marshal(text)
	t.Logf("200-line build log (%d bytes): text block as JSON %d bytes, rendered %d bytes (%.0f%%); "+
		"the same blocks JSON-encoded in the reply: %d and %d bytes (%.0f%%)",
		log.Len(), len(data), len(text), 100*float64(len(text))/float64(len(data)),
		len(wireJSON), len(wireText), 100*float64(len(wireText))/float64(len(wireJSON)))
	if !strings.Contains(text, log.String()) || len(data) <= log.Len() {
		t.Errorf("the rendering does not hold the log verbatim, or the JSON is smaller than the log")
	}
}
