// Testsum reads `go test -json` on standard input, prints what a reader of a
// CI log needs as it happens — one line per package, and the output of every
// test that fails — and ends with one summary line:
//
//	tmux 3.2a: 102 passed, 0 failed (3m10s)
//
// Only leaf tests are counted (a subtest, or a test without subtests), so
// TestScripts counts as its goldens. A test that started and never ended (a
// timeout, a crash) counts as failed, and so does a package that failed with
// no failing test (a build error, a failing TestMain). It exits 1 when
// anything failed. scripts/ci.sh runs it; it is not part of the server.
//
// Usage:
//
//	go test -json ./... | testsum [-label name] [-counts file] [-slowest n]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// event is the part of a test2json TestEvent (and of a go build -json
// BuildEvent, which go test -json interleaves) that testsum reads.
type event struct {
	Action     string
	Package    string
	ImportPath string // build events
	Test       string
	Elapsed    float64
	Output     string
}

type key struct{ pkg, test string }

type result struct {
	action  string // "pass", "fail", "skip", or "" while running
	elapsed float64
}

func main() {
	label := flag.String("label", "go test", "name printed at the start of the summary line")
	counts := flag.String("counts", "", "append \"passed failed skipped\" to this file")
	slowest := flag.Int("slowest", 0, "list the n slowest tests")
	flag.Parse()

	start := time.Now()
	s := newSummary(os.Stdout)
	if err := s.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	passed, failed, skipped := s.count()
	s.printSlowest(*slowest)

	line := fmt.Sprintf("%s: %d passed, %d failed", *label, passed, failed)
	if skipped > 0 {
		line += fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Printf("%s (%s)\n", line, time.Since(start).Round(time.Second))
	if *counts != "" {
		f, err := os.OpenFile(*counts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintf(f, "%d %d %d\n", passed, failed, skipped)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsum:", err)
			os.Exit(2)
		}
	}
	if failed > 0 {
		os.Exit(1)
	}
}

type summary struct {
	w       io.Writer
	order   []key             // tests in the order they started
	results map[key]*result   // every test seen
	output  map[key]*[]string // output kept until the test ends
	pkgs    map[string]string // package → "pass", "fail" or "skip"
	pkgFail []string          // packages that failed, in order
}

func newSummary(w io.Writer) *summary {
	return &summary{
		w:       w,
		results: map[key]*result{},
		output:  map[key]*[]string{},
		pkgs:    map[string]string{},
	}
}

func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event: go test's own complaints, passed through.
			fmt.Fprintf(s.w, "%s\n", line)
			continue
		}
		s.handle(e)
	}
	return sc.Err()
}

func (s *summary) handle(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.w, e.Output)
		return
	case "build-fail":
		return
	}
	k := key{e.Package, e.Test}
	if e.Test == "" {
		s.handlePackage(e)
		return
	}
	r := s.results[k]
	if r == nil {
		r = &result{}
		s.results[k] = r
		s.order = append(s.order, k)
		s.output[k] = new([]string)
	}
	switch e.Action {
	case "output":
		if out := s.output[k]; out != nil {
			*out = append(*out, e.Output)
		}
	case "pass", "skip":
		r.action, r.elapsed = e.Action, e.Elapsed
		delete(s.output, k)
	case "fail":
		r.action, r.elapsed = e.Action, e.Elapsed
		s.flush(k)
	}
}

// flush prints the output kept for a test, without go test's progress
// markers (=== RUN, PAUSE, CONT).
func (s *summary) flush(k key) {
	out := s.output[k]
	if out == nil {
		return
	}
	for _, l := range *out {
		if !strings.HasPrefix(l, "=== ") {
			fmt.Fprint(s.w, l)
		}
	}
	delete(s.output, k)
}

// handlePackage prints a package's own output as go test without -v would:
// its result line, and everything else when it failed. When the package
// failed, the output of its tests that never ended (a timeout's panic, a
// crash) is printed first.
func (s *summary) handlePackage(e event) {
	k := key{e.Package, ""}
	switch e.Action {
	case "output":
		if s.output[k] == nil {
			s.output[k] = new([]string)
		}
		*s.output[k] = append(*s.output[k], e.Output)
		return
	case "pass", "skip":
		s.pkgs[e.Package] = e.Action
	case "fail":
		s.pkgs[e.Package] = "fail"
		s.pkgFail = append(s.pkgFail, e.Package)
		for _, t := range s.order {
			if t.pkg == e.Package && s.results[t].action == "" {
				s.flush(t)
			}
		}
	default:
		return
	}
	out := s.output[k]
	if out == nil {
		return
	}
	for _, l := range *out {
		switch {
		case l == "PASS\n", l == "FAIL\n", strings.HasPrefix(l, "=== "), strings.HasPrefix(strings.TrimSpace(l), "--- "):
			// Progress markers, and test results printed with their tests.
		case e.Action == "fail" || strings.HasPrefix(l, "ok  "):
			fmt.Fprint(s.w, l)
		}
	}
	delete(s.output, k)
}

// count counts leaf tests: a test with subtests counts as its subtests.
func (s *summary) count() (passed, failed, skipped int) {
	parent := s.parents()
	failedIn := map[string]int{}
	for _, k := range s.order {
		if parent[k] {
			continue
		}
		switch s.results[k].action {
		case "pass":
			passed++
		case "skip":
			skipped++
		case "fail":
			failed++
			failedIn[k.pkg]++
		default:
			failed++
			failedIn[k.pkg]++
			fmt.Fprintf(s.w, "--- UNFINISHED: %s %s (a timeout or a crash; its output is above)\n", k.pkg, k.test)
		}
	}
	for _, pkg := range s.pkgFail {
		if failedIn[pkg] == 0 {
			failed++ // a build error, a failing TestMain, a panic outside tests
		}
	}
	return passed, failed, skipped
}

// printSlowest lists the n slowest leaf tests. A parallel test's time
// includes the time it waited for a free slot.
func (s *summary) printSlowest(n int) {
	if n <= 0 {
		return
	}
	parent := s.parents()
	var ks []key
	for _, k := range s.order {
		if s.results[k].action != "" && !parent[k] {
			ks = append(ks, k)
		}
	}
	slices.SortStableFunc(ks, func(a, b key) int {
		return -cmpFloat(s.results[a].elapsed, s.results[b].elapsed)
	})
	if len(ks) > n {
		ks = ks[:n]
	}
	if len(ks) > 0 {
		fmt.Fprintf(s.w, "slowest tests:\n")
	}
	for _, k := range ks {
		fmt.Fprintf(s.w, "  %6.1fs %s %s\n", s.results[k].elapsed, k.pkg, k.test)
	}
}

// parents returns the tests that have subtests.
func (s *summary) parents() map[key]bool {
	parent := map[key]bool{}
	for _, k := range s.order {
		for i := strings.LastIndex(k.test, "/"); i > 0; i = strings.LastIndex(k.test[:i], "/") {
			parent[key{k.pkg, k.test[:i]}] = true
		}
	}
	return parent
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
