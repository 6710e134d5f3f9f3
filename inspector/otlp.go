package inspector

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// ServiceName is the resource's service.name in every export.
const ServiceName = "memtrace"

// ScopeName is the instrumentation scope of the spans.
const ScopeName = "memtrace/inspector"

// ExportTraceServiceRequest is the OTLP/JSON request body: what the
// OpenTelemetry file exporter writes one per line and the Collector's
// otlpjsonfile receiver (and ptrace.JSONUnmarshaler) reads.
type ExportTraceServiceRequest struct {
	ResourceSpans []ResourceSpans `json:"resourceSpans"`
}

// ResourceSpans are the spans of one resource (here: this memtrace).
type ResourceSpans struct {
	Resource   Resource     `json:"resource"`
	ScopeSpans []ScopeSpans `json:"scopeSpans"`
}

// Resource describes what produced the spans.
type Resource struct {
	Attributes []KeyValue `json:"attributes"`
}

// ScopeSpans are the spans of one instrumentation scope.
type ScopeSpans struct {
	Scope InstrumentationScope `json:"scope"`
	Spans []Span               `json:"spans"`
}

// InstrumentationScope names the code that made the spans.
type InstrumentationScope struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Request wraps the spans of one recall in an export request from the
// resource service.name=memtrace, service.version=version.
func Request(version string, spans []Span) ExportTraceServiceRequest {
	attrs := []KeyValue{kv("service.name", Str(ServiceName))}
	if version != "" {
		attrs = append(attrs, kv("service.version", Str(version)))
	}
	return ExportTraceServiceRequest{ResourceSpans: []ResourceSpans{{
		Resource:   Resource{Attributes: attrs},
		ScopeSpans: []ScopeSpans{{Scope: InstrumentationScope{Name: ScopeName, Version: version}, Spans: spans}},
	}}}
}

// WriteRequest writes req as one JSON line.
func WriteRequest(w io.Writer, req ExportTraceServiceRequest) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // memory text stays readable; the encoder ends the line
	if err := enc.Encode(req); err != nil {
		return fmt.Errorf("encode spans: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write spans: %w", err)
	}
	return nil
}
