package cli

import (
	"fmt"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/safetext"
	"memtrace/mcpserver"
)

// mcpTelemetryOut exports the spans of every recall `memtrace mcp` serves
// when --otlp-endpoint or the OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT
// environment asks for it: the same spans as `recall --otlp-endpoint`,
// the root a child of the client's traceparent.
type mcpTelemetryOut struct {
	e    *env
	x    *inspector.Exporter // nil: telemetry off
	opts inspector.SpanOptions
}

func mcpTelemetry(e *env, of otlpFlags) (*mcpTelemetryOut, error) {
	// stdout is the protocol's: export errors go to stderr as they happen.
	x, err := of.exporter(e, func(err error) {
		fmt.Fprintf(e.stderr, "memtrace mcp: telemetry: %s\n", safetext.SanitizeLine(err.Error()))
	})
	if err != nil {
		return nil, err
	}
	return &mcpTelemetryOut{e: e, x: x, opts: of.spanOptions(e)}, nil
}

// recorder is the server's Telemetry: nil when off, so that the server
// does nothing per recall.
func (t *mcpTelemetryOut) recorder() mcpserver.Telemetry {
	if t.x == nil {
		return nil
	}
	return t
}

func (t *mcpTelemetryOut) Record(tr *engine.Trace, start time.Time, carrier map[string]string) {
	t.x.Record(tr, start, t.opts, carrier)
}

// shutdown flushes the queue within the flush timeout when the session
// ends, and says what did not arrive.
func (t *mcpTelemetryOut) shutdown() {
	if t.x != nil {
		shutdownExporter(t.e, t.x, "memtrace mcp")
	}
}
