package httpserve

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// OriginEnv names the environment twin of --http-allow-origin.
const OriginEnv = "TMUX_MCP_HTTP_ALLOW_ORIGIN"

// ParseOrigins reads a comma-separated list of origins, each a scheme
// (http or https), a host and perhaps a port, with no path:
// "https://inspector.example:6274". It returns them in the form an Origin
// header has, or an error naming the one that is not an origin.
func ParseOrigins(list string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		o, ok := origin(s)
		if !ok {
			return nil, fmt.Errorf("--http-allow-origin %q is not an origin: want SCHEME://HOST[:PORT] with scheme http or https and no path, e.g. https://inspector.example:6274", s)
		}
		out = append(out, o)
	}
	return out, nil
}

// origin returns s as scheme://host[:port] in lower case, or false when s
// is no http or https origin.
func origin(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), true
}

// RequireOrigin answers 403 to a request whose Origin header names a
// site other than a loopback one (localhost, 127.0.0.1, [::1], any port),
// the address the request came in at, or one of allowed (from
// [ParseOrigins]). A request without Origin is let through: browsers send
// one with every cross-site request, and other clients send none. This is
// the Origin check MCP's streamable HTTP transport asks servers for
// against DNS rebinding; go-sdk checks the Host header on loopback.
func RequireOrigin(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values := r.Header.Values("Origin")
		if len(values) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		if len(values) == 1 && originAllowed(values[0], r, allowed) {
			next.ServeHTTP(w, r)
			return
		}
		http.Error(w, fmt.Sprintf("403 forbidden: Origin %q is not allowed; tmux-mcp serves requests from loopback origins and its own address; --http-allow-origin (env %s) names others", strings.Join(values, ", "), OriginEnv), http.StatusForbidden)
	})
}

func originAllowed(value string, r *http.Request, allowed []string) bool {
	o, ok := origin(value)
	if !ok || o != strings.ToLower(value) && o+"/" != strings.ToLower(value) {
		return false // "null", a path, anything that is no plain origin
	}
	for _, a := range allowed {
		if o == a {
			return true
		}
	}
	u, _ := url.Parse(o)
	if isLoopback(u.Hostname()) {
		return true
	}
	// The address the request came in at: scheme's default port if none.
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lhost, lport, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	lip, oip := net.ParseIP(lhost), net.ParseIP(u.Hostname())
	return port == lport && lip != nil && oip != nil && lip.Equal(oip)
}
