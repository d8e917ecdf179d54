package callpath

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/gen"
)

// A pane as get_pane_info reports it, with the fields list_panes shares.
const benchPane = `{"active":true,"alternateScreen":false,"command":"bash","cursorX":12,"cursorY":3,
"cwd":"/home/user/src/project","dead":false,"exitSignal":null,"exitStatus":null,"height":40,
"historyLimit":2000,"historyLines":153,"index":%d,"left":0,"mode":null,"own":false,"paneId":"%%%d",
"pid":4242,"scrollPosition":null,"sessionId":"$1","sessionName":"work","title":"user@host: ~/src",
"top":0,"width":120,"windowId":"@3","windowIndex":1,"windowName":"editor"}`

// BenchmarkStructured is a read tool's result checked and marshalled as a
// tools/call sends it: get_pane_info's one pane, list_panes' ten.
func BenchmarkStructured(b *testing.B) {
	var info gen.GetPaneInfoOutput
	if err := json.Unmarshal([]byte(fmt.Sprintf(benchPane, 0, 0)), &info); err != nil {
		b.Fatal(err)
	}
	var panes []string
	for i := range 10 {
		p := fmt.Sprintf(benchPane, i, i)
		for _, drop := range []string{"alternateScreen", "cursorX", "cursorY", "historyLimit", "historyLines", "mode", "scrollPosition"} {
			p = dropKey(p, drop)
		}
		panes = append(panes, strings.Replace(p, `"own":false`, `"own":false,"inMode":false`, 1))
	}
	var list gen.ListPanesOutput
	if err := json.Unmarshal([]byte(`{"panes":[`+strings.Join(panes, ",")+`]}`), &list); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		out  any
	}{{"get_pane_info", info}, {"list_panes", list}} {
		schema := For(c.tool)
		if _, _, err := schema.Result(c.out); err != nil {
			b.Fatal(err)
		}
		b.Run(c.tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := schema.Result(c.out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// dropKey removes "key":value from the one-line-per-few-keys pane above.
func dropKey(obj, key string) string {
	i := strings.Index(obj, `"`+key+`":`)
	j := i + strings.IndexAny(obj[i:], ",}")
	if obj[j] == ',' {
		j++
	}
	return obj[:i] + obj[j:]
}
