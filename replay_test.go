package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// mcpReplay is the testscript command mcp-replay: it starts an MCP server
// (tmux-mcp, or the command after its flags), performs the initialize
// handshake, sends each line of its standard input, waits for every reply,
// and prints the replies in request order, one JSON object per line, with
// volatile values (pids, stream generations, times, $WORK) scrubbed.
//
//	-concurrent  send every line at once instead of one reply at a time
//	-eof         close the server's stdin right after the last line, then
//	             collect whatever it still answers before exiting
//	-indent      print replies indented (for readable tools/list goldens)
//	-init        print the initialize reply too
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
// first cursor in the reply to request N, and @gen:N@ that cursor without
// its offset (to build a cursor of the same stream). A line that is only
// @after:N@ sends nothing but waits for reply N. Each waits for reply N
// first, so scripts stay deterministic under -concurrent.
func mcpReplay(args []string) int {
	fs := flag.NewFlagSet("mcp-replay", flag.ContinueOnError)
	concurrent := fs.Bool("concurrent", false, "send every line at once")
	eof := fs.Bool("eof", false, "close stdin after the last line")
	indent := fs.Bool("indent", false, "indent replies")
	showInit := fs.Bool("init", false, "print the initialize reply")
	noOffsets := fs.Bool("nooffsets", false, "scrub cursor offsets")
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

	r := newReplies()
	go r.read(stdout)

	send := func(line string) {
		io.WriteString(stdin, line+"\n")
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "mcp-replay: "+format+"\n", a...)
		cmd.Process.Kill()
		cmd.Wait()
		os.Stderr.Write(stderr.Bytes())
		return 1
	}

	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-replay","version":"1"}}}`)
	if !r.wait(`"init"`, *timeout) {
		return fail("no reply to initialize")
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	var order []string // ids of requests, as JSON, in input order
	for _, line := range strings.Split(string(calls), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		line, ok := r.fill(line, *timeout)
		if !ok {
			return fail("no reply to a request %q refers to", line)
		}
		if line == "" {
			continue
		}
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		id := ""
		if json.Unmarshal([]byte(line), &probe) == nil && probe.Method != "" && len(probe.ID) > 0 && string(probe.ID) != "null" {
			id = string(probe.ID)
			order = append(order, id)
		}
		send(line)
		if !*concurrent && id != "" && !*eof {
			if !r.wait(id, *timeout) {
				return fail("no reply to request %s", id)
			}
		}
	}
	switch {
	case *sigtermAfter != "":
		if !r.wait(*sigtermAfter, *timeout) {
			return fail("no reply to request %s", *sigtermAfter)
		}
		cmd.Process.Signal(syscall.SIGTERM)
	case *eof:
		stdin.Close()
	default:
		for _, id := range order {
			if !r.wait(id, *timeout) {
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
	r.closed.Wait()

	scrub := newScrubber()
	if *noOffsets {
		scrub.rules = append(scrub.rules, scrubRule{regexp.MustCompile(`ltxc1\.GEN\.[0-9]+`), "ltxc1.GEN.N"})
	}
	print := func(raw json.RawMessage) {
		fmt.Println(scrub.apply(canonical(raw, *indent)))
	}
	if *showInit {
		print(r.byID[`"init"`])
	}
	for _, id := range order {
		if reply, ok := r.byID[id]; ok {
			print(reply)
		} else {
			fmt.Printf("no reply to request %s\n", id)
		}
	}
	for _, reply := range r.nullID {
		print(reply)
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

// replies collects the server's responses by id.
type replies struct {
	mu     sync.Mutex
	cond   *sync.Cond
	byID   map[string]json.RawMessage
	nullID []json.RawMessage
	closed sync.WaitGroup
}

func newReplies() *replies {
	r := &replies{byID: map[string]json.RawMessage{}}
	r.cond = sync.NewCond(&r.mu)
	r.closed.Add(1)
	return r
}

func (r *replies) read(out io.Reader) {
	defer r.closed.Done()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		line := append(json.RawMessage(nil), sc.Bytes()...)
		if json.Unmarshal(line, &probe) != nil || probe.Method != "" {
			continue // notifications and server requests are not replies
		}
		r.mu.Lock()
		if len(probe.ID) == 0 || string(probe.ID) == "null" {
			r.nullID = append(r.nullID, line)
		} else {
			r.byID[string(probe.ID)] = line
		}
		r.cond.Broadcast()
		r.mu.Unlock()
	}
	r.mu.Lock()
	r.byID["<eof>"] = nil
	r.cond.Broadcast()
	r.mu.Unlock()
}

// wait blocks until the reply to id arrives, the server's output ends, or
// timeout passes.
func (r *replies) wait(id string, timeout time.Duration) bool {
	timer := time.AfterFunc(timeout, func() {
		r.mu.Lock()
		r.byID["<timeout>"] = nil
		r.cond.Broadcast()
		r.mu.Unlock()
	})
	defer timer.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		if _, ok := r.byID[id]; ok {
			return true
		}
		if _, eof := r.byID["<eof>"]; eof {
			return false
		}
		if _, out := r.byID["<timeout>"]; out {
			delete(r.byID, "<timeout>")
			return false
		}
		r.cond.Wait()
	}
}

var placeholder = regexp.MustCompile(`@(cursor|gen|after):([0-9]+)@`)

var firstCursor = regexp.MustCompile(`"cursor":"(ltxc1\.[0-9a-f]{32}\.[0-9]+)"`)

// fill replaces the placeholders in line with values from earlier replies,
// waiting for each reply it names.
func (r *replies) fill(line string, timeout time.Duration) (string, bool) {
	for {
		m := placeholder.FindStringSubmatchIndex(line)
		if m == nil {
			return strings.TrimSpace(line), true
		}
		kind, id := line[m[2]:m[3]], line[m[4]:m[5]]
		if !r.wait(id, timeout) {
			return line, false
		}
		r.mu.Lock()
		reply := string(r.byID[id])
		r.mu.Unlock()
		value := ""
		if c := firstCursor.FindStringSubmatch(reply); c != nil {
			value = c[1]
			if kind == "gen" {
				value = value[:strings.LastIndexByte(value, '.')+1]
			}
		}
		if kind == "after" {
			value = ""
		}
		line = line[:m[0]] + value + line[m[1]:]
	}
}

// canonical re-encodes a reply with sorted keys so goldens are stable.
func canonical(raw json.RawMessage, indent bool) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	var b []byte
	if indent {
		b, _ = json.MarshalIndent(v, "", "  ")
	} else {
		b, _ = json.Marshal(v)
	}
	return string(b)
}

// A scrubber replaces values that differ from run to run, in the
// structured reply and in its text copy alike.
type scrubber struct {
	rules []scrubRule
}

type scrubRule struct {
	re   *regexp.Regexp
	with string
}

func newScrubber() *scrubber {
	s := &scrubber{rules: []scrubRule{
		{regexp.MustCompile(`(\\*"pid\\*":)[0-9]+`), "${1}PID"},
		{regexp.MustCompile(`(\\*"createdUnix\\*":)[0-9]+`), "${1}TIME"},
		{regexp.MustCompile(`ltxc1\.[0-9a-f]{32}\.`), "ltxc1.GEN."},
	}}
	if host, err := os.Hostname(); err == nil && host != "" {
		s.rules = append(s.rules, scrubRule{regexp.MustCompile(`(\\*"title\\*":\\*")` + regexp.QuoteMeta(host) + `(\\*")`), "${1}HOST${2}"})
	}
	if work := os.Getenv("WORK"); work != "" {
		s.rules = append(s.rules, scrubRule{regexp.MustCompile(regexp.QuoteMeta(work)), "$$WORK"})
	}
	return s
}

func (s *scrubber) apply(text string) string {
	for _, r := range s.rules {
		text = r.re.ReplaceAllString(text, r.with)
	}
	return text
}
