package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmux-mcp/tmux-mcp/schemas"
)

// moreArgs are further argument objects the tools accept, from the
// goldens in testdata/script, seeded beside each catalogue entry's
// Example; a tool needs none.
var moreArgs = map[string][]string{
	"list_windows":          {`{}`},
	"list_panes":            {`{}`, `{"sessionId":"$0","windowId":"@0"}`},
	"snapshot_pane":         {`{"paneId":"%0","maxLines":3,"escapes":true}`},
	"search_panes":          {`{"pattern":"(?m)^a+$","regex":true,"ignoreCase":true,"paneIds":["%0"],"scrollback":true,"maxPanes":3,"maxLines":100,"maxHits":2,"timeoutMs":1000}`},
	"find_pane_by_position": {`{"windowId":"@0","x":0,"y":0}`},
	"create_session":        {`{}`, `{"name":"single","argv":["./odd name;\"q\" #{x}"]}`, `{"name":"s","argv":["cat"],"cwd":"/","env":{"MODE":"a;b $x #{y}"},"width":80,"height":24,"windowName":"w"}`},
	"create_window": {`{"sessionId":"$0","name":"picked","select":true,"argv":["cat"]}`,
		`{"sessionId":"$0","name":"logs #{window_id} ##","cwd":"/","env":{"MODE":"a;b $x #{y}"},"argv":["sh","-c","printf '[%s]\\n' \"$@\"","sh","one two",";","#{pane_id}","it's"]}`},
	"split_window": {`{"paneId":"%0","direction":"left","select":true}`,
		`{"paneId":"%0","percent":30,"cwd":"/","env":{"TAG":"x;y #{pane_id}"},"argv":["sh","-c","cat","sh","a  b","c;","$(echo no)"]}`},
	"kill_pane":         {`{"paneId":"%3","force":true}`},
	"kill_window":       {`{"windowId":"@3","force":true}`},
	"kill_session":      {`{"sessionId":"$1","force":true}`},
	"send_keys":         {`{"paneId":"%0","keys":";"}`, `{"paneId":"%0","keys":"C-c","enter":false,"literal":true,"force":true}`},
	"capture_pane":      {`{"paneId":"%0"}`, `{"paneId":"%0","start":-100,"end":-1,"maxLines":5,"joinWrapped":true,"escapes":true}`},
	"capture_since":     {`{"paneId":"%0","cursor":"ltxc1.0123456789abcdef0123456789abcdef.42","waitMs":1000,"maxLines":10}`},
	"wait_for_text":     {`{"paneId":"%0","patterns":["(a)+b$"],"regex":true,"cursor":"ltxc1.0123456789abcdef0123456789abcdef.0","maxLines":3,"timeoutMs":1}`},
	"run_shell_command": {`{"paneId":"%0","command":"printf '%s\\n' \"$x\"; cd /tmp\nexit 3","timeoutMs":5000,"maxLines":2,"force":true}`},
	"start_program":     {`{"argv":["sh","-c","exit 7"],"waitMs":10000,"sessionName":"work","windowName":"w","keepPane":true,"cwd":"/","env":{"A":"b"},"width":100,"height":30}`},
	"run_program":       {`{"argv":["seq","1","100"],"maxLines":2}`, `{"argv":["echo","hi"],"timeoutMs":5000,"keepPane":true,"sessionName":"s","cwd":"/","env":{"A":"b"},"width":100,"height":30}`},
	"wait_for_command":  {`{"commandId":"cmd.0123abcd.12","timeoutMs":5000,"maxLines":2}`, `{"paneId":"%0","next":true}`},
	"wait_for_channel":  {`{"channel":"ch","timeout":0.5,"socket_name":null}`},
	"signal_channel":    {`{"channel":"a_b.c:d-e","socket_name":"x"}`},
	"select_layout":     {`{"windowId":"@0","layout":"8205,80x24,0,0{40x24,0,0,0,39x24,41,0,1}","force":true}`},
	"resize_pane":       {`{"paneId":"%0","zoomed":true}`, `{"paneId":"%0","direction":"right","amount":5,"force":true}`},
	"move_window":       {`{"windowId":"@1","sessionId":"$0","index":5,"force":true}`},
	"join_pane":         {`{"paneId":"%1","targetPaneId":"%0","direction":"right","percent":25,"force":true}`},
	"break_pane":        {`{"paneId":"%1","name":"out #{pane_id};","select":true,"force":true}`},
	"rename_session":    {`{"sessionId":"$0","name":"main #{session_id} #(x) ;"}`},
	"rename_window":     {`{"windowId":"@0","name":"w #{pane_id} ;"}`},
	"set_pane_title":    {`{"paneId":"%0","title":""}`, `{"paneId":"%0","title":"t $HOME #{x} ;"}`},
	"respawn_pane":      {`{"paneId":"%0","cwd":"/","env":{"V":"v;"},"argv":["sh","-c","exec cat"],"force":true}`},
	"wait_for_quiet":    {`{"paneId":"%0","quietMs":200,"timeoutMs":5000,"maxLines":5,"cursor":"ltxc1.0123456789abcdef0123456789abcdef.0"}`},
	"show_option":       {`{"scope":"server"}`, `{"scope":"pane","targetId":"%0","name":"@x","inherited":true,"global":false}`},
	"set_option":        {`{"scope":"session","global":true,"name":"@x","value":"#(no)"}`, `{"scope":"window","targetId":"@0","name":"remain-on-exit","value":"on","unset":false,"global":false}`},
	"show_environment":  {`{}`, `{"sessionId":"$0","name":"HOME"}`},
	"set_environment":   {`{"name":"A","value":"b"}`, `{"sessionId":"$0","name":"A","value":"#{x}","unset":false}`},
	"show_hooks":        {`{"scope":"pane","targetId":"%0","name":"pane-died","global":false}`},
	"show_buffer":       {`{"name":"mine"}`},
	"paste_buffer":      {`{"paneId":"%0","name":"b","delete":true,"enter":true,"force":true}`},
	"paste_text":        {`{"paneId":"%0","text":"a\tb\n\n'$x'","enter":true,"force":true}`},
}

// exampleArgs is tool's Example with its placeholders filled: a command id
// of the right shape for "$commandId".
func exampleArgs(tool Tool) string {
	return strings.ReplaceAll(tool.Example, "$commandId", "cmd.0123abcd.1")
}

// ValidExamples are a tool's example arguments, its Example last.
func validExamples(tool Tool) []string {
	return append(slices.Clone(moreArgs[tool.Name]), exampleArgs(tool))
}

// hostileValues replace, one at a time, each value of a valid example.
var hostileValues = []string{
	`"\u0000"`, "\"\xff\xfe\xc0\"", `"#(touch x)"`, `"#{pane_id}"`, `";"`, `"a\nb"`, `"%0\n"`, `"$0\n"`, `"%0 "`,
	`"%٣"`, `"` + strings.Repeat("é", 300) + `"`, `""`,
	`1e300`, `-1e300`, `-1`, `0`, `1.5`, `9007199254740992`, `-9007199254740992`, `1e-300`, `1E2`,
	`null`, `true`, `[]`, `{}`, `[""]`, `["\u0000"]`, `{"":""}`, `{"A=B":"\n"}`,
	strings.Repeat("[", 1100) + strings.Repeat("]", 1100),
}

// hostileArgs are whole argument values tried on every tool.
var hostileArgs = []string{
	``, `null`, `[]`, `""`, `0`, `{`, `{"":0}`, `{"paneId":"%0","paneId":1}`,
	"{\"\xff\":1}", `{"PANEID":"%0","KEYS":"x","COMMAND":"x","CHANNEL":"x","ARGV":["x"]}`,
	strings.Repeat(`{"a":`, 1100) + `1` + strings.Repeat(`}`, 1100),
}

// sdkToolServer returns a server with every tool's schema and In type,
// whose handlers only record that they ran, and a client connected to it.
func sdkToolServer() *toolServer {
	sdkMu.Lock()
	defer sdkMu.Unlock()
	if sdk != nil {
		return sdk
	}
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "args", Version: "1"}, nil)
	s.AddReceivingMiddleware(nullArgumentsAsEmpty) // as Register adds it
	called := map[string]*bool{}
	for _, tool := range Catalogue {
		called[tool.Name] = new(bool)
		tool.bind.probe(s, &mcp.Tool{Name: tool.Name, InputSchema: schemas.Input(tool.Name)}, called[tool.Name])
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	sdk = &toolServer{cs: cs, called: called}
	return sdk
}

// sdkToolServerReset drops a session that ended, so the next input gets a
// new one.
func sdkToolServerReset() {
	sdkMu.Lock()
	defer sdkMu.Unlock()
	if sdk != nil {
		sdk.cs.Close()
		sdk = nil
	}
}

type toolServer struct {
	cs     *mcp.ClientSession
	called map[string]*bool
}

var (
	sdkMu sync.Mutex
	sdk   *toolServer
)

// nesting returns how deep arrays and objects nest in JSON text b.
func nesting(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// FuzzToolArguments decodes arbitrary arguments for every tool. The first
// byte picks the tool (by index into the sorted tool names), the rest is the
// arguments. For each:
//
//   - the generated input type decodes the raw bytes without panicking;
//   - the tool's input schema (github.com/google/jsonschema-go, as the SDK
//     uses it: defaults applied, then validated) accepts or rejects them
//     without panicking; and when it accepts, the generated type decodes
//     what the SDK passes on (the arguments re-marshalled with defaults):
//     the generated validators are never stricter than the schema;
//   - the same arguments sent through the SDK to a tool with that schema and
//     In type are either refused by the schema or reach the handler, never
//     refused by the generated decoder.
//
// Run: go test -run '^$' -fuzz '^FuzzToolArguments$' -fuzztime 60s ./tools
func FuzzToolArguments(f *testing.F) {
	names := schemas.Tools()
	byName := map[string]Tool{}
	for _, tool := range Catalogue {
		byName[tool.Name] = tool
	}
	resolved := map[string]*jsonschema.Resolved{}
	for _, name := range names {
		var s jsonschema.Schema
		if err := json.Unmarshal(schemas.Input(name), &s); err != nil {
			f.Fatal(err)
		}
		r, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
		if err != nil {
			f.Fatal(name, err)
		}
		resolved[name] = r
	}
	seed := func(name, args string) {
		f.Add(append([]byte{byte(slices.Index(names, name))}, args...))
	}
	for _, name := range names {
		tool, ok := byName[name]
		if !ok {
			continue // a schema without a tool: TestNewToolIsComplete names it
		}
		examples := validExamples(tool)
		for _, valid := range examples {
			seed(name, valid)
		}
		// Hostile values in each property of the fullest example.
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(examples[len(examples)-1]), &obj); err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		for key := range obj {
			for _, v := range hostileValues {
				seed(name, withValue(obj, key, v))
			}
		}
		for _, args := range hostileArgs {
			seed(name, args)
		}
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		name := names[int(data[0])%len(names)]
		args := data[1:]
		tool, ok := byName[name]
		if !ok {
			return // a schema without a tool
		}
		decode := func(b []byte) error { return json.Unmarshal(b, reflect.New(tool.bind.in).Interface()) }
		decode(args) // must not panic; any error is fine

		// As the SDK does it (mcp/tool.go applySchema): decode into a map,
		// apply defaults, validate, re-marshal, decode into In.
		schemaOK := false
		m := map[string]any{}
		if len(args) == 0 || json.Unmarshal(args, &m) == nil {
			var v any = m
			if _, isMap := v.(map[string]any); isMap && m != nil {
				if err := resolved[name].ApplyDefaults(&v); err != nil {
					t.Fatalf("%s: applying defaults: %v", name, err)
				}
			}
			if resolved[name].Validate(&v) == nil {
				schemaOK = true
				passed, err := json.Marshal(v)
				if err != nil {
					t.Fatalf("%s: re-marshalling: %v", name, err)
				}
				if err := decode(passed); err != nil {
					t.Errorf("%s: the schema accepts %s but %s refuses it: %v", name, passed, tool.bind.in, err)
				}
			}
		}

		// The same through the SDK itself.
		if len(args) > 0 && !json.Valid(args) {
			return // a client cannot send it
		}
		if nesting(args) > 900 {
			// The SDK ends the session on a message nested deeper than
			// 1000; the server's line guard answers such a line itself
			// (stdio.FuzzTransport).
			return
		}
		sdk := sdkToolServer()
		*sdk.called[name] = false
		params := &mcp.CallToolParams{Name: name}
		if len(args) > 0 {
			params.Arguments = json.RawMessage(args)
		}
		res, err := sdk.cs.CallTool(context.Background(), params)
		if err != nil {
			sdkToolServerReset()
			t.Fatalf("%s %s: protocol error: %v", name, args, err)
		}
		if *sdk.called[name] {
			if !schemaOK {
				t.Logf("%s %s: the SDK accepts what the schema check here refused", name, args)
			}
			return
		}
		var text string
		if len(res.Content) > 0 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				text = tc.Text
			}
		}
		if !res.IsError || !(strings.HasPrefix(text, `validating "arguments"`) || strings.HasPrefix(text, "unmarshaling arguments")) {
			t.Errorf("%s %s: the SDK's schema check passed, then the call failed before the handler: %s", name, args, text)
		}
	})
}

// withValue returns obj as JSON with key's value replaced by raw, which is
// written verbatim (so it may hold invalid UTF-8).
func withValue(obj map[string]json.RawMessage, key, raw string) string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		if k == key {
			b.WriteString(raw)
		} else {
			b.Write(obj[k])
		}
	}
	b.WriteByte('}')
	return b.String()
}
