package inspector

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"memtrace/engine"
)

// Export to a collector goes through the OpenTelemetry Go SDK: the
// otlptracehttp exporter (OTLP/HTTP, protobuf by default or JSON, gzip,
// headers, retries that honour Retry-After on 429/503, every
// OTEL_EXPORTER_OTLP_* variable) behind the SDK's batch span processor (a
// bounded queue drained by its own goroutine, so a recall only enqueues).
// The spans are the ones Spans builds for the --otel file — one model, two
// encoders: WriteRequest for the file, the SDK for the wire.

// Environment variables memtrace reads itself (the SDK reads the
// OTEL_EXPORTER_OTLP_* family, OTEL_SERVICE_NAME and OTEL_BSP_*).
const (
	// EnvCaptureContent is the GenAI conventions' capture-content switch.
	EnvCaptureContent = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
	envEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	envTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	envSDKDisabled    = "OTEL_SDK_DISABLED"
	envExportTimeout  = "OTEL_BSP_EXPORT_TIMEOUT"
)

// DefaultFlushTimeout bounds how long a command waits at its end for the
// queued spans to reach the collector (OTEL_BSP_EXPORT_TIMEOUT, in
// milliseconds, overrides it).
const DefaultFlushTimeout = 5 * time.Second

// CaptureContent reports whether the environment opts in to content
// attributes: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true
// (or SPAN_ONLY / SPAN_AND_EVENT, as other GenAI instrumentations spell
// it), in any case.
func CaptureContent() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvCaptureContent))) {
	case "true", "1", "span_only", "span_and_event":
		return true
	}
	return false
}

// ExportEnabled reports whether spans go to a collector: an endpoint was
// given (flag), or OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, and OTEL_SDK_DISABLED is not
// true.
func ExportEnabled(endpoint string) bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv(envSDKDisabled)), "true") {
		return false
	}
	return endpoint != "" || os.Getenv(envEndpoint) != "" || os.Getenv(envTracesEndpoint) != ""
}

// FlushTimeout is OTEL_BSP_EXPORT_TIMEOUT when it is a positive number of
// milliseconds, else DefaultFlushTimeout.
func FlushTimeout() time.Duration {
	if ms, err := strconv.Atoi(strings.TrimSpace(os.Getenv(envExportTimeout))); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	return DefaultFlushTimeout
}

// TracesURL checks a --otlp-endpoint value and returns the URL spans are
// posted to: /v1/traces is added when the URL has no path.
func TracesURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--otlp-endpoint %q: give the collector's URL, e.g. http://localhost:4318", endpoint)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// ExporterOptions configure NewExporter.
type ExporterOptions struct {
	// Endpoint is --otlp-endpoint; "" leaves the collector to the
	// OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT variables.
	Endpoint string
	// Version is the resource's service.version and the scope's version.
	Version string
	// OnError, if set, hears every failed export (after the SDK's retries)
	// as it happens: a long-running server logs them.
	OnError func(error)
}

// Exporter sends recall traces to a collector. Its methods are safe for
// concurrent use; Shutdown ends it.
type Exporter struct {
	tp     *sdktrace.TracerProvider
	tracer trace.Tracer
	count  *countingExporter
	target string
	ended  atomic.Int64
}

// Report says what an Exporter delivered by its Shutdown.
type Report struct {
	Target   string // where the spans went (the endpoint, or "the OTEL_EXPORTER_OTLP endpoint")
	Spans    int64  // spans recorded
	Exported int64  // spans the collector accepted
	Err      error  // the last export error, or the shutdown's (a flush cut short)
}

// Dropped is how many recorded spans did not reach the collector.
func (r Report) Dropped() int64 { return r.Spans - r.Exported }

// NewExporter builds the SDK pipeline: the resource (service.name memtrace,
// service.version, overridden by OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES), the OTLP/HTTP exporter and the batch span
// processor. Nothing is sent until a span ends.
func NewExporter(ctx context.Context, o ExporterOptions) (*Exporter, error) {
	opts := []otlptracehttp.Option{
		// The SDK's default waits 5 s before the first retry whatever the
		// collector asks; start small and let Retry-After set the pace.
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 250 * time.Millisecond,
			MaxInterval: 5 * time.Second, MaxElapsedTime: 30 * time.Second}),
	}
	target := "the " + envEndpoint + " endpoint"
	if o.Endpoint != "" {
		u, err := TracesURL(o.Endpoint)
		if err != nil {
			return nil, err
		}
		opts = append(opts, otlptracehttp.WithEndpointURL(u))
		target = u
	} else if v := os.Getenv(envTracesEndpoint); v != "" {
		target = v
	} else if v := os.Getenv(envEndpoint); v != "" {
		target = strings.TrimSuffix(v, "/") + "/v1/traces"
	}
	inner, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("otlp exporter: %w", err)
	}
	base := []attribute.KeyValue{attribute.String("service.name", ServiceName)}
	if o.Version != "" {
		base = append(base, attribute.String("service.version", o.Version))
	}
	// Later detectors win: OTEL_SERVICE_NAME overrides service.name.
	res, err := resource.New(ctx, resource.WithTelemetrySDK(), resource.WithAttributes(base...), resource.WithFromEnv())
	if err != nil && res == nil {
		return nil, fmt.Errorf("otel resource: %w", err)
	}
	count := &countingExporter{inner: inner, onError: o.OnError}
	// Export errors are counted and reported by the Exporter; the SDK's
	// global handler would print them a second time.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {}))
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(count))
	return &Exporter{tp: tp, tracer: tp.Tracer(ScopeName, trace.WithInstrumentationVersion(o.Version)),
		count: count, target: target}, nil
}

// Record queues the spans of one recall — the same root and stage spans
// as Spans — under the trace context the carrier holds (W3C traceparent and
// tracestate, as an MCP client puts them in a call's _meta): the root is
// then a child of the caller's span, else the root of a new trace. It
// returns at once; the batch processor sends the spans later.
func (x *Exporter) Record(tr *engine.Trace, start time.Time, o SpanOptions, carrier map[string]string) {
	parent := context.Background()
	if len(carrier) > 0 {
		parent = propagation.TraceContext{}.Extract(parent, propagation.MapCarrier(carrier))
	}
	model := Spans(tr, start, o)
	root := model[0]
	ctx, rs := x.tracer.Start(parent, root.Name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(unixNano(root.StartTimeUnixNano)), trace.WithAttributes(sdkAttributes(root.Attributes)...))
	for _, s := range model[1:] {
		_, ss := x.tracer.Start(ctx, s.Name, trace.WithSpanKind(trace.SpanKindInternal),
			trace.WithTimestamp(unixNano(s.StartTimeUnixNano)), trace.WithAttributes(sdkAttributes(s.Attributes)...))
		ss.End(trace.WithTimestamp(unixNano(s.EndTimeUnixNano)))
	}
	rs.End(trace.WithTimestamp(unixNano(root.EndTimeUnixNano)))
	x.ended.Add(int64(len(model)))
}

// Shutdown sends what is queued, waiting at most until ctx ends, and stops
// the exporter. The report counts what did not arrive: dropped by a full
// queue, refused by the collector, or still queued when ctx ended.
func (x *Exporter) Shutdown(ctx context.Context) Report {
	err := x.tp.Shutdown(ctx)
	r := Report{Target: x.target, Spans: x.ended.Load(), Exported: x.count.exported.Load()}
	if last := x.count.lastErr(); last != nil {
		r.Err = last
	}
	if err != nil && (r.Err == nil || errors.Is(err, context.DeadlineExceeded)) {
		r.Err = err
	}
	return r
}

func unixNano(s string) time.Time {
	n, _ := strconv.ParseInt(s, 10, 64) // Spans writes them with FormatInt
	return time.Unix(0, n)
}

// countingExporter counts the spans the collector accepted and keeps the
// last error, so that Shutdown can say what was dropped.
type countingExporter struct {
	inner    sdktrace.SpanExporter
	onError  func(error)
	exported atomic.Int64
	mu       sync.Mutex
	err      error
}

func (c *countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := c.inner.ExportSpans(ctx, spans)
	if err == nil {
		c.exported.Add(int64(len(spans)))
		return nil
	}
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	if c.onError != nil {
		c.onError(err)
	}
	return err
}

func (c *countingExporter) Shutdown(ctx context.Context) error { return c.inner.Shutdown(ctx) }

func (c *countingExporter) lastErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// sdkAttributes converts the model's attributes to the SDK's, maps and
// arrays included (OTLP carries both natively).
func sdkAttributes(kvs []KeyValue) []attribute.KeyValue {
	out := make([]attribute.KeyValue, len(kvs))
	for i, kv := range kvs {
		out[i] = attribute.KeyValue{Key: attribute.Key(kv.Key), Value: sdkValue(kv.Value)}
	}
	return out
}

func sdkValue(v AnyValue) attribute.Value {
	switch {
	case v.StringValue != nil:
		return attribute.StringValue(*v.StringValue)
	case v.BoolValue != nil:
		return attribute.BoolValue(*v.BoolValue)
	case v.IntValue != nil:
		n, _ := strconv.ParseInt(*v.IntValue, 10, 64) // Int writes it with FormatInt
		return attribute.Int64Value(n)
	case v.DoubleValue != nil:
		return attribute.Float64Value(*v.DoubleValue)
	case v.ArrayValue != nil:
		vs := make([]attribute.Value, len(v.ArrayValue.Values))
		for i, e := range v.ArrayValue.Values {
			vs[i] = sdkValue(e)
		}
		return attribute.SliceValue(vs...)
	case v.KvlistValue != nil:
		return attribute.MapValue(sdkAttributes(v.KvlistValue.Values)...)
	}
	return attribute.StringValue("")
}
