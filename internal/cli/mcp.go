package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"strings"

	"memtrace/engine"
	"memtrace/mcpserver"
)

// cmdMCP serves the database to an agent over MCP on stdin/stdout until the
// client closes the connection, or with --http on a loopback address over
// the streamable HTTP transport until the process is stopped.
//
// The database (--db) is the one the agent reads and writes; the TUI can
// open it at the same time.
func cmdMCP(fl *flag.FlagSet) runFunc {
	jf := addJudgeFlags(fl)
	keep := fl.Int("keep-traces", 0, "how many recall traces to keep for the TUI (0: the configured default, 200)")
	httpAddr := fl.String("http", "", "serve the streamable HTTP transport on this loopback `HOST:PORT` (path /mcp) instead of stdin/stdout. Every request after initialize names its session (Mcp-Session-Id); a body must arrive within 30s, idle connections close after 2m, and past 256 open connections one more is answered 503. On stdin/stdout at most 2 calls per CPU run at once; later ones wait, unread")
	tokenFile := fl.String("token-file", "", "with --http: require \"Authorization: Bearer TOKEN\", the token read from this `FILE` (mode 600: a file others can read is refused)")
	origins := fl.String("allow-origin", "", "with --http: browser `ORIGINS` allowed besides loopback ones, comma-separated (e.g. https://inspector.example:6274); any other Origin gets 403")
	detail := fl.String("recall-detail", "", "memory_recall's default `DETAIL`: texts (default: the texts in the structured result), ids (the memory block as the text content, for a client that forwards only that) or full")
	of := addOTLPFlags(fl, "every recall's spans (continuing the traceparent in the call's _meta)")
	return func(e *env, args []string) error {
		if len(args) != 0 {
			return usageError{"mcp takes no arguments; register it with your agent (see docs/agents.md)"}
		}
		if *keep < 0 {
			return usageError{"--keep-traces must be 0 or more"}
		}
		recallDetail, err := mcpserver.ParseRecallDetail(*detail)
		if err != nil {
			return usageError{"--" + err.Error() + ": use texts, ids or full"}
		}
		if err := of.check(false); err != nil {
			return err
		}
		if *httpAddr == "" && (*tokenFile != "" || *origins != "") {
			return usageError{"--token-file and --allow-origin apply to --http only: stdin/stdout needs neither"}
		}
		var ho mcpserver.HTTPOptions
		if *tokenFile != "" {
			tok, err := mcpserver.ReadTokenFile(*tokenFile)
			if err != nil {
				return usageError{err.Error()}
			}
			ho.Token = tok
		}
		for _, o := range strings.Split(*origins, ",") {
			if o = strings.TrimSpace(o); o != "" {
				if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
					return usageError{fmt.Sprintf("--allow-origin %q: an origin is scheme://host[:port], e.g. http://localhost:6274", o)}
				}
				ho.Origins = append(ho.Origins, o)
			}
		}
		// The address is checked and bound before the database opens: a
		// refused or busy address must not open (or create) a database.
		var ln net.Listener
		if *httpAddr != "" {
			l, err := mcpserver.LoopbackListener(*httpAddr)
			if err != nil {
				return usageError{err.Error()}
			}
			ln = l
			defer ln.Close()
		}
		tel, err := mcpTelemetry(e, of)
		if err != nil {
			return err
		}
		defer tel.shutdown()
		// The engine opens (every row read, the indexes built: seconds at
		// 100k memories) while the server already answers initialize and
		// tools/list; a tool call waits for it. A database that cannot be
		// opened ends the server with that error, as before.
		ctx, stop := context.WithCancelCause(e.ctx)
		defer stop(nil)
		var closeEngine func()
		srv := mcpserver.NewOpening(func() (*engine.Engine, error) {
			eng, closeDB, err := openJudgedEngine(e, jf, false)
			if err != nil {
				stop(err)
				return nil, err
			}
			closeEngine = closeDB
			releaseVectorPages(eng)
			return eng, nil
		}, mcpserver.Options{Keep: *keep, RecallDetail: recallDetail, Telemetry: tel.recorder()})
		err = serveMCP(ctx, e, srv, ln, ho)
		// A client that left before the open ended still learns (exit
		// status, stderr) that the database could not be opened.
		if openErr := srv.Opened(); openErr != nil {
			if e.ctx.Err() != nil && errors.Is(openErr, context.Canceled) {
				return err // interrupted while the database opened: a clean stop
			}
			return openErr
		}
		closeEngine()
		return err
	}
}

// serveMCP serves srv on ln (HTTP) or on stdin/stdout until the client
// leaves or ctx ends.
func serveMCP(ctx context.Context, e *env, srv *mcpserver.Server, ln net.Listener, ho mcpserver.HTTPOptions) error {
	if ln != nil {
		fmt.Fprintf(e.stderr, "memtrace mcp: serving http://%s%s\n", ln.Addr(), mcpserver.HTTPPath)
		if err := srv.ServeHTTP(ctx, ln, ho); err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("mcp http: %w", err)
		}
		return nil
	}
	// stdout belongs to the protocol: nothing else may be written to it.
	// The line transport answers a malformed frame with a JSON-RPC error
	// and keeps serving.
	t := &mcpserver.LineTransport{Reader: e.stdin, Writer: e.stdout}
	if err := srv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp session: %w", err)
	}
	return nil
}
