package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The text block of a successful result is a rendering of its structured
// content for a model to read: a short header of "key: value" lines, then
// the pane text verbatim, where JSON showed a build log as one line with
// every newline and quote escaped. The structured content stays as the schema
// says; the rendering is derived from it alone, by the rules below, so a
// new tool gets it without code of its own.
//
//   - Header, in this order: the keys that say how the call ended
//     (leadKeys), then ids (names ending in Id or Ids), then the rest by
//     name. Nulls and false flags are left out, and so is what the agent
//     already knows (unsaid): the shell, stillRunning and state:ended
//     beside an outcome, outputComplete.
//   - Accounting appears only when something was cut: a count of what was
//     dropped, omitted or missed, or a …Clamped flag, only when it is
//     non-zero or true, and the returned… counts and the line limit applied
//     (effectiveMaxLines) only alongside one.
//   - An effective…Ms (the timeout or wait the call kept to) appears only
//     when it differs from what the request asked for, its default
//     included: that is, when the server clamped it ([RenderFor]).
//   - Strings print bare unless that would hide something (empty, spaces
//     at an end, control characters, a leading quote); then JSON-quoted.
//   - Lists of objects print one row per line, "- key=value …", under a
//     "name: count" line; a value every row of two or more shares is said
//     once on that line ("panes: 2 (each sessionId=$1 …)").
//   - Pane text (textKeys, or any string but a lead key holding a newline) follows the
//     header verbatim, each field under a "--- name ---" line. An empty one
//     is said in the header ("output: \"\""), unless another one has text
//     (wait_for_text's screen is always empty on a match).

// leadKeys come first in the header, in this order.
var leadKeys = []string{"outcome", "exitStatus", "signal", "matched", "result"}

// textKeys name the fields that hold pane text.
var textKeys = map[string]bool{"output": true, "text": true, "screen": true}

// unsaid says whether the header leaves out k with value v: what the
// agent asked for or what the outcome already says.
func unsaid(k string, v any) bool {
	switch k {
	case "shell", "stillRunning", "outputComplete":
		return true
	case "state":
		return v == "ended"
	}
	return v == false
}

// askedNames are the arguments an effective…Ms value answers, the first
// the request gave: "effectiveTimeoutMs" answers "timeoutMs", or
// capture_since's "waitMs" (the seed contract names it so).
func askedNames(k string) []string {
	name := strings.TrimPrefix(k, "effective")
	name = strings.ToLower(name[:1]) + name[1:]
	if name == "timeoutMs" {
		return []string{name, "waitMs"}
	}
	return []string{name}
}

// isEffective says whether k is a timeout or wait the call kept to.
func isEffective(k string) bool {
	return strings.HasPrefix(k, "effective") && strings.HasSuffix(k, "Ms")
}

// RenderJSON renders a result's structured content given as JSON (an
// object). See [RenderResult].
func RenderJSON(data []byte) (string, error) {
	return RenderFor(data, nil)
}

// RenderFor renders a result's structured content given as JSON for the
// request whose arguments (as the handler received them, defaults
// applied) are given as JSON too, or nil: an effective…Ms value that
// differs from the argument it answers is said at the end of the header.
func RenderFor(data, request []byte) (string, error) {
	v, err := decodeObject(data)
	if err != nil {
		return "", err
	}
	var asked map[string]any
	if len(request) > 0 {
		if asked, err = decodeObject(request); err != nil {
			return "", err
		}
	}
	return render(v, asked), nil
}

func decodeObject(data []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// RenderResult renders decoded structured content (numbers as json.Number
// or float64) as the text block of its result, for a request that was not
// clamped.
func RenderResult(structured map[string]any) string {
	return render(structured, nil)
}

func render(structured, asked map[string]any) string {
	var header, rows, blocks []string
	cut, anyText := false, false
	for k, v := range structured {
		cut = cut || isCut(k) && !zero(v)
		anyText = anyText || isText(k, v) && !zero(v)
	}
	for _, k := range orderedKeys(structured) {
		v := structured[k]
		switch {
		case v == nil:
		case isEffective(k):
			var a any
			ok := false
			for _, name := range askedNames(k) {
				if a, ok = asked[name]; ok {
					break
				}
			}
			if ok && scalar(a, false) != scalar(v, false) {
				header = append(header, k+": "+scalar(v, false))
			}
		case isCut(k) || alongCut(k):
			if cut && (!isCut(k) || !zero(v)) {
				header = append(header, k+": "+scalar(v, false))
			}
		case isText(k, v):
			if s := v.(string); s != "" {
				blocks = append(blocks, "--- "+k+" ---\n"+s)
			} else if !anyText {
				header = append(header, k+": "+scalar(s, false))
			}
		case unsaid(k, v):
		case isRows(v):
			rows = append(rows, renderRows(k, v.([]any))...)
		default:
			if m, ok := v.(map[string]any); ok {
				header = append(header, k+": "+inline(m, nil))
			} else {
				header = append(header, k+": "+scalar(v, false))
			}
		}
	}
	var b strings.Builder
	b.WriteString(strings.Join(append(header, rows...), "\n"))
	for _, block := range blocks {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(block)
	}
	return b.String()
}

// renderRows renders a list of objects as a count line and one row each,
// saying once on the count line the values every row shares.
func renderRows(k string, list []any) []string {
	shared := map[string]any{}
	if len(list) > 1 {
		first := list[0].(map[string]any)
		for key, v := range first {
			same := v != nil
			for _, row := range list[1:] {
				w, ok := row.(map[string]any)[key]
				same = same && ok && scalar(w, true) == scalar(v, true)
			}
			if same {
				shared[key] = v
			}
		}
	}
	head := fmt.Sprintf("%s: %d", k, len(list))
	if each := inline(shared, nil); each != "" {
		head += " (each " + each + ")"
	}
	lines := []string{head}
	for _, row := range list {
		lines = append(lines, "- "+inline(row.(map[string]any), shared))
	}
	return lines
}

// orderedKeys returns m's keys: leadKeys, ids, then the rest by name, with
// accounting last.
func orderedKeys(m map[string]any) []string {
	rank := func(k string) int {
		if i := slices.Index(leadKeys, k); i >= 0 {
			return i
		}
		switch {
		case strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "Ids") || k == "id":
			return len(leadKeys)
		case isCut(k) || alongCut(k):
			return len(leadKeys) + 2
		}
		return len(leadKeys) + 1
	}
	type ranked struct {
		key  string
		rank int
	}
	order := make([]ranked, 0, len(m))
	for k := range m {
		order = append(order, ranked{k, rank(k)})
	}
	slices.SortFunc(order, func(a, b ranked) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return strings.Compare(a.key, b.key)
	})
	keys := make([]string, len(order))
	for i, o := range order {
		keys[i] = o.key
	}
	return keys
}

// isCut says whether k counts or flags something a result left out.
func isCut(k string) bool {
	for _, p := range []string{"dropped", "omitted", "missed"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return strings.HasSuffix(k, "Clamped")
}

// alongCut says whether k is shown only with the accounting of a cut.
func alongCut(k string) bool {
	return strings.HasPrefix(k, "returned") || k == "effectiveMaxLines"
}

// isText says whether v is pane text, for a block of its own. A lead key
// (a multi-line match, say) stays in the header, quoted: the output block
// holds the same text.
func isText(k string, v any) bool {
	s, ok := v.(string)
	return ok && (textKeys[k] || strings.Contains(s, "\n") && !slices.Contains(leadKeys, k))
}

// isRows says whether v is a list of objects.
func isRows(v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return false
	}
	for _, e := range list {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

func zero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case json.Number:
		return v == "0"
	case float64:
		return v == 0
	case string:
		return v == ""
	}
	return false
}

// inline renders an object on one line as key=value pairs, leaving out
// nulls, false flags and the keys in skip.
func inline(m map[string]any, skip map[string]any) string {
	var parts []string
	for _, k := range orderedKeys(m) {
		if _, skipped := skip[k]; skipped || m[k] == nil || m[k] == false {
			continue
		}
		parts = append(parts, k+"="+scalar(m[k], true))
	}
	return strings.Join(parts, " ")
}

// scalar renders one value. In a row (inRow), a string with a space or an
// equals sign is quoted too, and so is an element of a list.
func scalar(v any, inRow bool) string {
	switch v := v.(type) {
	case string:
		if needsQuotes(v, inRow) {
			return quote(v)
		}
		return v
	case json.Number:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case []any:
		if len(v) == 0 {
			return "[]"
		}
		parts := make([]string, len(v))
		for i, e := range v {
			if _, nested := e.(map[string]any); nested {
				return compactJSON(v)
			}
			parts[i] = scalar(e, true)
		}
		return strings.Join(parts, " ")
	}
	return compactJSON(v)
}

func needsQuotes(s string, inRow bool) bool {
	if s == "" || s[0] == '"' || strings.TrimSpace(s) != s {
		return true
	}
	if inRow && strings.ContainsAny(s, " =") {
		return true
	}
	return strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' })
}

// quote is JSON quoting without escaping <, > and &.
func quote(s string) string {
	return compactJSON(s)
}

func compactJSON(v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if e.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
