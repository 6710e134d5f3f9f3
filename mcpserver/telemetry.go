package mcpserver

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"memtrace/engine"
)

// Telemetry hears every recall made through MCP, with the trace context
// the client sent in the call's _meta (W3C traceparent and tracestate, as
// the OpenTelemetry MCP conventions carry it), so that the recall's spans
// continue the agent's trace. Record must not block: the CLI's exporter
// queues the spans for the SDK's batch processor (internal/cli/mcp.go).
type Telemetry interface {
	Record(tr *engine.Trace, start time.Time, carrier map[string]string)
}

// traceContextKeys are the _meta keys of the W3C trace context.
var traceContextKeys = []string{"traceparent", "tracestate"}

// traceRecall hands a recall to the server's telemetry, if any.
func (s *Server) traceRecall(req *mcp.CallToolRequest, tr *engine.Trace, start time.Time) {
	if s.telemetry == nil {
		return
	}
	s.telemetry.Record(tr, start, traceCarrier(req))
}

// traceCarrier reads traceparent and tracestate from the call's _meta;
// values that are not strings are ignored (the propagator then starts a
// new trace, as it does for a malformed traceparent).
func traceCarrier(req *mcp.CallToolRequest) map[string]string {
	if req == nil || req.Params == nil {
		return nil
	}
	meta := req.Params.GetMeta()
	var carrier map[string]string
	for _, k := range traceContextKeys {
		if v, ok := meta[k].(string); ok && v != "" {
			if carrier == nil {
				carrier = map[string]string{}
			}
			carrier[k] = v
		}
	}
	return carrier
}
