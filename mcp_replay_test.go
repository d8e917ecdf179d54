package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tmux-mcp/tmux-mcp/internal/mcptest"
	"github.com/tmux-mcp/tmux-mcp/tools"
)

// mcpReplay is the testscript command mcp-replay: it starts an MCP server
// (tmux-mcp, or the command after its flags), performs the initialize
// handshake, sends each line of its standard input, waits for every reply,
// and prints the replies in request order, with volatile values (pids,
// stream generations, commandIds' instance nonces, times, $WORK, an input
// judgement's evidence) scrubbed.
//
// Each reply is one line of JSON with sorted keys, except that a result's
// structuredContent is printed one field per line (a list one element per
// line). The text block of such a result must be the rendering of its
// structuredContent (tools.RenderResult); it is then printed as the word
// renderedText, and any other text (a note, a mismatch) as it is.
//
//	-concurrent  send every line at once instead of one reply at a time
//	-eof         close the server's stdin right after the last line, then
//	             collect whatever it still answers before exiting
//	-indent      print replies indented (for readable tools/list goldens)
//	-init        print the initialize reply too
//	-text        also print each result's text blocks as a client shows
//	             them, every line prefixed with "| ", after the reply
//	-nooffsets   scrub cursor offsets too (ltxc1.GEN.N), for output whose
//	             length depends on timing, such as a shell's prompts
//	-sigterm-after ID
//	             send the server SIGTERM once the reply to request ID
//	             arrives, keeping stdin open: the server must answer what
//	             is in flight and exit by itself
//
// Replies with a null id (errors for lines that were not JSON-RPC) are
// printed after the others. A line that is not a JSON object is sent as is.
//
// A request may use what an earlier reply returned: @cursor:N@ becomes the
// first cursor in the reply to request N, @cutCursor:N@ its first
// cutCursor, and @gen:N@ that cursor without its offset (to build a cursor
// of the same stream); @commandId:N@ becomes the commandId in the reply to
// request N. A line that is only
// @after:N@ sends nothing but waits for reply N. Each waits for reply N
// first, so scripts stay deterministic under -concurrent.
func mcpReplay(args []string) int {
	fs := flag.NewFlagSet("mcp-replay", flag.ContinueOnError)
	concurrent := fs.Bool("concurrent", false, "send every line at once")
	eof := fs.Bool("eof", false, "close stdin after the last line")
	indent := fs.Bool("indent", false, "indent replies")
	showInit := fs.Bool("init", false, "print the initialize reply")
	noOffsets := fs.Bool("nooffsets", false, "scrub cursor offsets")
	showText := fs.Bool("text", false, "print text blocks as text too")
	timeout := fs.Duration("timeout", 90*time.Second, "longest wait for any reply")
	sigtermAfter := fs.String("sigterm-after", "", "send SIGTERM after the reply to this request id")
	if fs.Parse(args) != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) == 0 {
		argv = []string{"tmux-mcp"}
	}
	calls, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcp-replay:", err)
		return 2
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-replay:", err)
		return 2
	}

	r := mcptest.New(stdout, stdin)
	send := func(line string) { r.Send(line) }
	replied := func(id string, timeout time.Duration) bool {
		_, err := r.Wait(id, timeout)
		return err == nil
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "mcp-replay: "+format+"\n", a...)
		cmd.Process.Kill()
		cmd.Wait()
		os.Stderr.Write(stderr.Bytes())
		return 1
	}

	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-replay","version":"1"}}}`)
	if !replied(`"init"`, *timeout) {
		return fail("no reply to initialize")
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	var order []string                        // ids of requests, as JSON, in input order
	arguments := map[string]json.RawMessage{} // tools/call arguments by request id
	for _, line := range strings.Split(string(calls), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		line, ok := fill(r, line, *timeout)
		if !ok {
			return fail("no reply to a request %q refers to", line)
		}
		if line == "" {
			continue
		}
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		id := ""
		if json.Unmarshal([]byte(line), &probe) == nil && probe.Method != "" && len(probe.ID) > 0 && string(probe.ID) != "null" {
			id = string(probe.ID)
			order = append(order, id)
			arguments[id] = probe.Params.Arguments
		}
		send(line)
		if !*concurrent && id != "" && !*eof {
			if !replied(id, *timeout) {
				return fail("no reply to request %s", id)
			}
		}
	}
	switch {
	case *sigtermAfter != "":
		if !replied(*sigtermAfter, *timeout) {
			return fail("no reply to request %s", *sigtermAfter)
		}
		cmd.Process.Signal(syscall.SIGTERM)
	case *eof:
		stdin.Close()
	default:
		for _, id := range order {
			if !replied(id, *timeout) {
				return fail("no reply to request %s", id)
			}
		}
		stdin.Close()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-time.After(*timeout):
		return fail("server did not exit after its input closed")
	}
	<-r.Done()

	p := replyPrinter{scrub: newScrubber(*noOffsets), indent: *indent, text: *showText}
	print := func(raw, request json.RawMessage) {
		fmt.Print(p.format(raw, request))
	}
	if *showInit {
		reply, _ := r.Reply(`"init"`)
		print(reply, nil)
	}
	for _, id := range order {
		if reply, ok := r.Reply(id); ok {
			print(reply, arguments[id])
		} else {
			fmt.Printf("no reply to request %s\n", id)
		}
	}
	for _, reply := range r.NullIDReplies() {
		print(reply, nil)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line != "" && !startupLine.MatchString(line) {
			fmt.Fprintln(os.Stderr, line)
		}
	}
	if waitErr != nil {
		fmt.Printf("server: %v\n", waitErr)
		return 1
	}
	return 0
}

var startupLine = regexp.MustCompile(`^tmux-mcp \S+: socket `)

var placeholder = regexp.MustCompile(`@(cursor|cutCursor|gen|commandId|after):([0-9]+)@`)

var firstCursor = regexp.MustCompile(`"cursor":"(ltxc1\.[0-9a-f]{32}\.[0-9]+)"`)

var firstCutCursor = regexp.MustCompile(`"cutCursor":"(ltxc1\.[0-9a-f]{32}\.[0-9]+)"`)

var firstCommandID = regexp.MustCompile(`"commandId":"(cmd\.[0-9a-f]{8}\.[0-9]+)"`)

// fill replaces the placeholders in line with values from earlier replies,
// waiting for each reply it names.
func fill(r *mcptest.Client, line string, timeout time.Duration) (string, bool) {
	for {
		m := placeholder.FindStringSubmatchIndex(line)
		if m == nil {
			return strings.TrimSpace(line), true
		}
		kind, id := line[m[2]:m[3]], line[m[4]:m[5]]
		raw, err := r.Wait(id, timeout)
		if err != nil {
			return line, false
		}
		reply := string(raw)
		value := ""
		switch kind {
		case "cursor", "gen":
			if c := firstCursor.FindStringSubmatch(reply); c != nil {
				value = c[1]
				if kind == "gen" {
					value = value[:strings.LastIndexByte(value, '.')+1]
				}
			}
		case "cutCursor":
			if c := firstCutCursor.FindStringSubmatch(reply); c != nil {
				value = c[1]
			}
		case "commandId":
			if c := firstCommandID.FindStringSubmatch(reply); c != nil {
				value = c[1]
			}
		}
		line = line[:m[0]] + value + line[m[1]:]
	}
}

// renderedText stands for a text block that is exactly the rendering of
// the result's structuredContent.
const renderedText = "renderedText"

// A replyPrinter formats replies for goldens.
type replyPrinter struct {
	scrub  *scrubber
	indent bool // the whole reply indented (tools/list)
	text   bool // text blocks printed as text too
}

// format returns one reply as it goes into a golden, ending in a newline;
// request is the arguments of the tools/call it answers, or nil, for the
// rendering to say what the server said of a clamped timeout.
func (p replyPrinter) format(raw, request json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var reply any
	if d.Decode(&reply) != nil {
		return p.scrub.text(string(raw)) + "\n"
	}
	result, _ := field(reply, "result").(map[string]any)
	structured, _ := field(result, "structuredContent").(map[string]any)
	blocks := textBlocks(result)
	render := func() string {
		data, _ := json.Marshal(structured)
		text, _ := tools.RenderFor(data, request)
		return text
	}
	if structured != nil && len(blocks) > 0 {
		last := blocks[len(blocks)-1]
		if last["text"] == render() {
			last["text"] = renderedText
		}
	}
	reply = p.scrub.value("", reply)
	var b strings.Builder
	if p.indent {
		var out bytes.Buffer
		if json.Indent(&out, []byte(compactJSON(reply, "")), "", "  ") != nil {
			out.Reset()
			out.WriteString(compactJSON(reply, "")) // a scrubbed word in it
		}
		b.Write(out.Bytes())
	} else {
		b.WriteString(compactJSON(reply, "structuredContent"))
	}
	b.WriteByte('\n')
	if p.text {
		// The rendering of the scrubbed structuredContent: the same text
		// with the same values scrubbed.
		for i, block := range blocks {
			text, _ := block["text"].(string)
			if text == renderedText && i == len(blocks)-1 {
				text = render() // of the scrubbed values
			}
			fmt.Fprintf(&b, "text %d:\n", i+1)
			// Trailing blanks are trimmed so that editors keep goldens intact;
			// structuredContent above holds the exact text.
			for _, line := range strings.Split(text, "\n") {
				b.WriteString(strings.TrimRight("| "+line, " ") + "\n")
			}
		}
	}
	return b.String()
}

func field(v any, key string) any {
	m, _ := v.(map[string]any)
	return m[key]
}

// textBlocks returns a result's text content blocks.
func textBlocks(result any) []map[string]any {
	content, _ := field(result, "content").([]any)
	var blocks []map[string]any
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			blocks = append(blocks, m)
		}
	}
	return blocks
}

// compactJSON writes v as JSON with sorted keys, without escaping <, > and
// &. The object under the key spread, wherever it is, gets one field per
// line, and a list in it one element per line.
func compactJSON(v any, spread string) string {
	var b strings.Builder
	writeJSON(&b, v, spread, 0)
	return b.String()
}

func writeJSON(b *strings.Builder, v any, spread string, depth int) {
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(quoteJSON(k) + ":")
			if k == spread && depth == 0 {
				if m, ok := v[k].(map[string]any); ok && len(m) > 0 {
					writeSpread(b, m)
					continue
				}
			}
			writeJSON(b, v[k], spread, depth)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e, spread, depth)
		}
		b.WriteByte(']')
	case string:
		b.WriteString(quoteJSON(v))
	case json.Number:
		b.WriteString(v.String())
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		fmt.Fprint(b, v)
	}
}

// writeSpread writes an object one field per line, and a list of objects
// in it one element per line.
func writeSpread(b *strings.Builder, m map[string]any) {
	b.WriteString("{\n")
	keys := slices.Sorted(maps.Keys(m))
	for i, k := range keys {
		b.WriteString("  " + quoteJSON(k) + ":")
		if list, ok := m[k].([]any); ok && len(list) > 0 {
			b.WriteString("[\n")
			for j, e := range list {
				b.WriteString("    ")
				writeJSON(b, e, "", 1)
				if j < len(list)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("  ]")
		} else {
			writeJSON(b, m[k], "", 1)
		}
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteByte('}')
}

func quoteJSON(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// A scrubber replaces values that differ from run to run. It is the one
// place that knows them: numbers by their key, strings by their content.
type scrubber struct {
	numbers map[string]json.Number // key → the word printed for its number
	strs    []scrubRule
	host    string
}

type scrubRule struct {
	re   *regexp.Regexp
	with string
}

func newScrubber(noOffsets bool) *scrubber {
	s := &scrubber{numbers: map[string]json.Number{"pid": "PID", "createdUnix": "TIME"}}
	s.strs = append(s.strs, scrubRule{regexp.MustCompile(`ltxc1\.[0-9a-f]{32}\.`), "ltxc1.GEN."})
	// A commandId's instance nonce; its number stays, as a cursor's offset
	// does.
	s.strs = append(s.strs, scrubRule{regexp.MustCompile(`\bcmd\.[0-9a-f]{8}\.`), "cmd.GEN."})
	if noOffsets {
		s.strs = append(s.strs, scrubRule{regexp.MustCompile(`ltxc1\.GEN\.[0-9]+`), "ltxc1.GEN.N"})
	}
	if work := os.Getenv("WORK"); work != "" {
		s.strs = append(s.strs, scrubRule{regexp.MustCompile(regexp.QuoteMeta(work)), "$$WORK"})
	}
	if host, err := os.Hostname(); err == nil {
		s.host = host
	}
	return s
}

// value scrubs a decoded reply; key is the name v is held under.
func (s *scrubber) value(key string, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = s.value(k, e)
		}
	case []any:
		if key == "evidence" && len(v) > 0 {
			// What the input engine saw: times, pids and terminals.
			return "EVIDENCE"
		}
		for i, e := range v {
			v[i] = s.value(key, e)
		}
	case json.Number:
		if word, ok := s.numbers[key]; ok {
			return word
		}
	case string:
		if key == "title" && s.host != "" && v == s.host {
			return "HOST"
		}
		return s.text(v)
	}
	return v
}

// text scrubs a string.
func (s *scrubber) text(t string) string {
	for _, r := range s.strs {
		t = r.re.ReplaceAllString(t, r.with)
	}
	return t
}
