package httpserve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the MCP endpoint is served.
const Path = "/mcp"

// TokenEnv names the environment variable that holds the bearer token.
const TokenEnv = "TMUX_MCP_HTTP_TOKEN"

// CheckAddr refuses an address that is not loopback unless allowRemote.
// A host name other than localhost, or an empty host (every interface),
// counts as remote.
func CheckAddr(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: want HOST:PORT, e.g. 127.0.0.1:8765", addr)
	}
	if allowRemote || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("--http %s is not a loopback address: anyone who can reach it and has the token drives your tmux; "+
		"listen on 127.0.0.1 or [::1], or pass --http-allow-remote to mean it", addr)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Token reads the bearer token: from file when one is named, else from
// $TMUX_MCP_HTTP_TOKEN. Surrounding white space (a trailing newline) is
// not part of it. An empty token is refused.
func Token(file string) (string, error) {
	var tok string
	if file != "" {
		data, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--http-token-file: %w", err)
		}
		tok = strings.TrimSpace(string(data))
		if tok == "" {
			return "", fmt.Errorf("--http-token-file %s is empty: put a long random token in it (e.g. openssl rand -hex 32)", file)
		}
		return tok, nil
	}
	tok = strings.TrimSpace(os.Getenv(TokenEnv))
	if tok == "" {
		return "", fmt.Errorf("--http needs a bearer token: set %s or --http-token-file (e.g. openssl rand -hex 32)", TokenEnv)
	}
	return tok, nil
}

// Handler serves srv at [Path], behind the Origin check
// ([RequireOrigin], which also lets allowOrigins through) and the token
// check.
//
// A request of the 2026-07-28 revision (its MCP-Protocol-Version header
// says so) goes to a stateless handler: it carries everything it needs,
// and closing it cancels the call. Anything else goes to a handler that
// keeps 2025-11-25 sessions, where a cancellation is a notification in
// the session.
func Handler(srv *mcp.Server, token string, allowOrigins ...string) http.Handler {
	get := func(*http.Request) *mcp.Server { return srv }
	modern := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		PropagateRequestCancellation: true, // the client went: end the wait now
	})
	sessions := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		SessionTimeout: 30 * time.Minute, // an abandoned session goes eventually
	})
	mux := http.NewServeMux()
	mux.Handle(Path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("MCP-Protocol-Version"); v >= statelessRevision {
			modern.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	}))
	return RequireOrigin(allowOrigins, RequireToken(token, mux))
}

// statelessRevision is the first MCP revision without sessions. Revisions
// are dates, so they compare as strings.
const statelessRevision = "2026-07-28"

// RequireToken answers 401 to any request without "Authorization: Bearer
// <token>". The comparison takes the same time whatever the guess.
func RequireToken(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="tmux-mcp"`)
			http.Error(w, "401 unauthorized: send Authorization: Bearer <the token from "+TokenEnv+" or --http-token-file>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Serve answers on ln until stop is closed or ctx ends. Then it calls
// cancelCalls (the waits in flight answer cancelled, with what they saw),
// stops taking requests and gives those in flight a moment to be answered.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, stop <-chan struct{}, cancelCalls func()) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-stop:
	case <-ctx.Done():
	}
	cancelCalls()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(shutdown)
	if errors.Is(err, context.DeadlineExceeded) {
		err = hs.Close()
	}
	if err2 := <-errc; !errors.Is(err2, http.ErrServerClosed) && err == nil {
		err = err2
	}
	return err
}
