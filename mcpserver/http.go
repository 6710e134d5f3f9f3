package mcpserver

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where ServeHTTP answers MCP's streamable HTTP transport.
const HTTPPath = "/mcp"

// HTTPOptions protect and bound the HTTP transport. Zero values are the
// defaults.
type HTTPOptions struct {
	// Token, when set, is required as "Authorization: Bearer TOKEN" on
	// every request (401 otherwise).
	Token string
	// Origins are browser origins allowed besides the loopback ones, as
	// scheme://host[:port]; any other Origin is refused with 403.
	Origins []string
	// HeaderTimeout bounds reading a request's headers (default 10s),
	// BodyTimeout its body (default 30s): a slow client is cut off.
	HeaderTimeout, BodyTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no request (default 2m).
	IdleTimeout time.Duration
	// MaxConns caps the open connections (default 256); one more is answered
	// 503 and closed at once.
	MaxConns int
	// MaxBody bounds a request body (default 4 MiB, 413 beyond).
	MaxBody int64
}

// HTTP limits by default (docs/agents.md, "HTTP transport").
const (
	DefaultHeaderTimeout = 10 * time.Second
	DefaultBodyTimeout   = 30 * time.Second
	DefaultIdleTimeout   = 2 * time.Minute
	DefaultMaxConns      = 256
	DefaultMaxBody       = 4 << 20
)

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.HeaderTimeout <= 0 {
		o.HeaderTimeout = DefaultHeaderTimeout
	}
	if o.BodyTimeout <= 0 {
		o.BodyTimeout = DefaultBodyTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	return o
}

// Handler is the HTTP handler of the streamable transport at HTTPPath,
// behind memtrace's checks (session, Origin, token, ids, body bounds).
func (s *Server) Handler(o HTTPOptions) http.Handler {
	o = o.withDefaults()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: o.MaxBody})
	g := &guard{next: h, origins: map[string]bool{}, body: o.BodyTimeout, maxBody: o.MaxBody}
	if o.Token != "" {
		g.token, g.hasToken = sha256.Sum256([]byte(o.Token)), true
	}
	for _, origin := range o.Origins {
		g.origins[strings.TrimRight(origin, "/")] = true
	}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, g)
	return mux
}

// ServeHTTP serves the tools over MCP's streamable HTTP transport on ln
// until ctx ends. It is meant for local agents and tools (the MCP
// Inspector, the conformance suite): the caller binds a loopback address,
// and requests whose Host is not localhost are refused (DNS rebinding).
// There is no write timeout: an event stream stays open as long as its
// client wants it.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, o HTTPOptions) error {
	o = o.withDefaults()
	hs := &http.Server{Handler: s.Handler(o), ReadHeaderTimeout: o.HeaderTimeout, IdleTimeout: o.IdleTimeout,
		MaxHeaderBytes: 64 << 10}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(CapListener(ln, o.MaxConns)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		// A client's open event stream (the streamable transport's GET) is
		// never idle, so Shutdown would wait out its whole timeout for it:
		// give requests in flight a moment, then close what is left. An
		// interrupt is a clean stop either way.
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
			_ = hs.Close()
		} else if err != nil {
			return err
		}
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
			return serr
		}
		return nil
	}
}

// LoopbackListener listens on addr, which must name a loopback host
// (127.0.0.1, ::1 or localhost): memtrace's memory is not served to the
// network.
func LoopbackListener(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: want HOST:PORT, e.g. 127.0.0.1:8765", addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--http %q: memtrace serves MCP over HTTP on a loopback address only (127.0.0.1, ::1, localhost)", addr)
	}
	return net.Listen("tcp", addr)
}
