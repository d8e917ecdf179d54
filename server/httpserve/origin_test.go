package httpserve_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tmux-mcp/tmux-mcp/server/httpserve"
)

func TestRequireOrigin(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	allowed, err := httpserve.ParseOrigins("https://Inspector.example:6274, http://tools.example")
	if err != nil {
		t.Fatal(err)
	}
	h := httpserve.RequireOrigin(allowed, ok)
	// The request came in at a non-loopback address, as with
	// --http-allow-remote.
	local := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 8765}
	for _, c := range []struct {
		origins []string
		want    int
	}{
		{nil, http.StatusOK}, // not a browser
		{[]string{"http://localhost:3000"}, http.StatusOK},
		{[]string{"https://localhost"}, http.StatusOK},
		{[]string{"http://127.0.0.1:6274"}, http.StatusOK},
		{[]string{"http://[::1]:1"}, http.StatusOK},
		{[]string{"http://192.0.2.7:8765"}, http.StatusOK}, // its own address
		{[]string{"http://192.0.2.7:8765/"}, http.StatusOK},
		{[]string{"https://inspector.example:6274"}, http.StatusOK}, // named
		{[]string{"http://tools.example"}, http.StatusOK},
		{[]string{"http://evil.example"}, http.StatusForbidden},
		{[]string{"http://192.0.2.7:9999"}, http.StatusForbidden},
		{[]string{"http://192.0.2.7"}, http.StatusForbidden},
		{[]string{"https://inspector.example"}, http.StatusForbidden}, // another port
		{[]string{"http://inspector.example:6274"}, http.StatusForbidden},
		{[]string{"http://tools.example.evil.example"}, http.StatusForbidden},
		{[]string{"http://localhost.evil.example"}, http.StatusForbidden},
		{[]string{"null"}, http.StatusForbidden},
		{[]string{""}, http.StatusForbidden},
		{[]string{"file://"}, http.StatusForbidden},
		{[]string{"http://localhost:3000/x"}, http.StatusForbidden},
		{[]string{"http://localhost", "http://evil.example"}, http.StatusForbidden},
	} {
		r := httptest.NewRequest("POST", "http://192.0.2.7:8765/mcp", nil)
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(local)))
		for _, o := range c.origins {
			r.Header.Add("Origin", o)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("Origin %q: status %d, want %d", c.origins, w.Code, c.want)
		}
		if w.Code == http.StatusForbidden && !strings.Contains(w.Body.String(), "--http-allow-origin") {
			t.Errorf("Origin %q: the 403 does not name --http-allow-origin: %q", c.origins, w.Body.String())
		}
	}
}

func TestParseOrigins(t *testing.T) {
	got, err := httpserve.ParseOrigins(" HTTPS://A.example:1/ ,,http://[::1]:2")
	if err != nil || strings.Join(got, " ") != "https://a.example:1 http://[::1]:2" {
		t.Fatalf("ParseOrigins: %q %v", got, err)
	}
	if got, err := httpserve.ParseOrigins(""); err != nil || len(got) != 0 {
		t.Fatalf("ParseOrigins(\"\"): %q %v", got, err)
	}
	for _, bad := range []string{"a.example", "ftp://a.example", "https://a.example/path", "https://a.example?q", "https://", "null", "*"} {
		if _, err := httpserve.ParseOrigins("http://ok.example," + bad); err == nil || !strings.Contains(err.Error(), "--http-allow-origin") {
			t.Errorf("ParseOrigins took %q: %v", bad, err)
		}
	}
}

// The whole server: a foreign Origin is refused even with the right
// token; a loopback one and a named one are served.
func TestOriginChecked(t *testing.T) {
	url, _ := served(t, "https://inspector.example")
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for origin, want := range map[string]int{
		"http://evil.example":       http.StatusForbidden,
		"http://localhost:6274":     http.StatusOK,
		"https://inspector.example": http.StatusOK,
		"":                          http.StatusOK,
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Origin %q: status %d, want %d", origin, resp.StatusCode, want)
		}
	}
}
