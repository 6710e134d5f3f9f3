package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where ServeHTTP answers MCP's streamable HTTP transport.
const HTTPPath = "/mcp"

// ServeHTTP serves the tools over MCP's streamable HTTP transport on ln
// until ctx ends. It is meant for local agents and tools (the MCP
// Inspector, the conformance suite): the caller binds a loopback address,
// and requests whose Host is not localhost are refused (DNS rebinding).
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener) error {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
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
