package inspector_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"memtrace/engine"
	"memtrace/inspector"
	"memtrace/internal/testdata/otlptest"
)

// A client span as an MCP client would send it in _meta.
const (
	clientTrace  = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpan   = "00f067aa0ba902b7"
	clientParent = "00-" + clientTrace + "-" + clientSpan + "-01"
	clientState  = "vendor=opaque"
)

func demoTrace(t *testing.T, query string) *engine.Trace {
	t.Helper()
	d := openDemo(t)
	tr, err := inspector.Recall(context.Background(), d.e, engine.Query{Text: query, At: d.now.Add(90 * day)})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func newExporter(t *testing.T, endpoint string) *inspector.Exporter {
	t.Helper()
	x, err := inspector.NewExporter(context.Background(), inspector.ExporterOptions{Endpoint: endpoint, Version: "v9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func shutdown(t *testing.T, x *inspector.Exporter, d time.Duration) inspector.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return x.Shutdown(ctx)
}

// attrText is every attribute value of a span, flattened to text.
func attrText(s ptrace.Span) string {
	var b strings.Builder
	s.Attributes().Range(func(k string, v pcommon.Value) bool {
		b.WriteString(k + "=" + v.AsString() + "\n")
		return true
	})
	return b.String()
}

// Through the SDK: OTLP/HTTP protobuf to /v1/traces, the root a child of
// the caller's traceparent (its tracestate kept), one span per stage under
// it, and no content without the opt-in.
func TestExporterContinuesTheCallersTrace(t *testing.T) {
	recv := otlptest.New(t)
	tr := demoTrace(t, looseChungju)
	x := newExporter(t, recv.URL)
	x.Record(tr, time.Now(), inspector.SpanOptions{StoreID: inspector.StoreID("sqlite:/tmp/x.db")},
		map[string]string{"traceparent": clientParent, "tracestate": clientState})
	if r := shutdown(t, x, 10*time.Second); r.Dropped() != 0 || r.Spans != 12 || r.Exported != 12 {
		t.Fatalf("report %+v", r)
	}
	reqs := recv.Requests()
	if len(reqs) != 1 || reqs[0].Err != nil || reqs[0].Path != "/v1/traces" || reqs[0].ContentType != "application/x-protobuf" {
		t.Fatalf("requests %+v", reqs)
	}
	rs := reqs[0].Traces.ResourceSpans().At(0)
	if v, _ := rs.Resource().Attributes().Get("service.name"); v.Str() != "memtrace" {
		t.Errorf("service.name = %q", v.AsString())
	}
	if v, _ := rs.Resource().Attributes().Get("service.version"); v.Str() != "v9.9.9" {
		t.Errorf("service.version = %q", v.AsString())
	}
	spans := otlptest.Spans(reqs[0].Traces)
	var root ptrace.Span
	stages := 0
	for _, s := range spans {
		if s.TraceID().String() != clientTrace {
			t.Errorf("span %s in trace %s, not the caller's", s.Name(), s.TraceID())
		}
		if s.Name() == inspector.SpanRoot {
			root = s
		} else if strings.HasPrefix(s.Name(), inspector.SpanStagePrefix) {
			stages++
		}
		if strings.Contains(attrText(s), "충주") {
			t.Errorf("span %s carries query or memory text without the opt-in:\n%s", s.Name(), attrText(s))
		}
	}
	if stages != len(engine.StageNames) || root.Name() == "" {
		t.Fatalf("%d stage spans and root %q", stages, root.Name())
	}
	if root.ParentSpanID().String() != clientSpan || root.TraceState().AsRaw() != clientState || root.Kind() != ptrace.SpanKindClient {
		t.Errorf("root parent %s state %q kind %v", root.ParentSpanID(), root.TraceState().AsRaw(), root.Kind())
	}
	for _, s := range spans {
		if s.Name() != inspector.SpanRoot && s.ParentSpanID() != root.SpanID() {
			t.Errorf("stage %s is not a child of the root", s.Name())
		}
	}
	for _, k := range []string{"gen_ai.memory.query.text", "gen_ai.memory.records"} {
		if _, ok := root.Attributes().Get(k); ok {
			t.Errorf("%s exported without the opt-in", k)
		}
	}
	if v, _ := root.Attributes().Get("gen_ai.memory.store.id"); !strings.HasPrefix(v.Str(), "memtrace-") || strings.Contains(v.Str(), "/") {
		t.Errorf("gen_ai.memory.store.id = %q", v.AsString())
	}
	if v, ok := root.Attributes().Get("memtrace.survivor_ids"); !ok || v.Slice().Len() != len(tr.Survivors) || len(tr.Survivors) == 0 {
		t.Errorf("memtrace.survivor_ids = %v, survivors %d", v.AsString(), len(tr.Survivors))
	}
	// A stage's map attribute survives the SDK's conversion.
	for _, s := range spans {
		if s.Name() == inspector.SpanStagePrefix+"temporal" {
			if v, ok := s.Attributes().Get("memtrace.dropped"); !ok || v.Type() != pcommon.ValueTypeMap {
				t.Errorf("temporal memtrace.dropped = %v", v.AsString())
			}
		}
	}
}

// With the opt-in the query and the records are there, neutralised: no
// raw control byte reaches the collector.
func TestExporterContentOptIn(t *testing.T) {
	recv := otlptest.New(t)
	query := "충주 사과 \x1b]0;owned\x07\x1b[2J"
	tr := demoTrace(t, query)
	x := newExporter(t, recv.URL)
	x.Record(tr, time.Now(), inspector.SpanOptions{Content: true}, nil)
	if r := shutdown(t, x, 10*time.Second); r.Dropped() != 0 {
		t.Fatalf("report %+v", r)
	}
	spans := recv.Accepted()
	if len(spans) != 12 {
		t.Fatalf("%d spans", len(spans))
	}
	var root ptrace.Span
	for _, s := range spans {
		if s.Name() == inspector.SpanRoot {
			root = s
		}
		if text := attrText(s); strings.ContainsAny(text, "\x1b\x07") {
			t.Errorf("span %s carries raw control bytes:\n%q", s.Name(), text)
		}
	}
	if !root.ParentSpanID().IsEmpty() {
		t.Errorf("without a traceparent the root has parent %s", root.ParentSpanID())
	}
	q, ok := root.Attributes().Get("gen_ai.memory.query.text")
	if !ok || !strings.HasPrefix(q.Str(), "충주 사과 ") {
		t.Errorf("gen_ai.memory.query.text = %q", q.AsString())
	}
	if v, ok := root.Attributes().Get("gen_ai.memory.records"); !ok || v.Slice().Len() != len(tr.Survivors) {
		t.Errorf("gen_ai.memory.records holds %d records, survivors %d", v.Slice().Len(), len(tr.Survivors))
	}
}

// A collector that answers 503 with Retry-After: 1 gets every span on the
// retry, and both recalls of a compare.
func TestExporterRetriesAfter503(t *testing.T) {
	recv := otlptest.New(t)
	recv.Refuse(1, 503, 1)
	tr := demoTrace(t, looseChungju)
	x := newExporter(t, recv.URL)
	began := time.Now()
	x.Record(tr, began, inspector.SpanOptions{}, nil)
	x.Record(tr, began, inspector.SpanOptions{}, nil)
	r := shutdown(t, x, 10*time.Second)
	took := time.Since(began)
	reqs := recv.Requests()
	if r.Dropped() != 0 || r.Exported != 24 || len(recv.Accepted()) != 24 {
		t.Fatalf("report %+v; receiver accepted %d spans in %d requests", r, len(recv.Accepted()), len(reqs))
	}
	if len(reqs) < 2 || reqs[0].Status != 503 || took < time.Second {
		t.Errorf("%d requests (first %d) in %v: the retry should wait the Retry-After second", len(reqs), reqs[0].Status, took)
	}
	t.Logf("503 then 200: %d requests, every span delivered after %v", len(reqs), took.Round(time.Millisecond))
}

// A collector that does not answer does not hold a recall up: Record only
// queues. Shutdown gives up when its context ends and says what it
// dropped.
func TestExporterSlowCollector(t *testing.T) {
	recv := otlptest.New(t)
	recv.Slow(2 * time.Second)
	tr := demoTrace(t, looseChungju)
	x := newExporter(t, recv.URL)
	began := time.Now()
	x.Record(tr, began, inspector.SpanOptions{}, nil)
	recorded := time.Since(began)
	r := shutdown(t, x, 300*time.Millisecond)
	stopped := time.Since(began)
	if recorded > 100*time.Millisecond {
		t.Errorf("Record took %v with a slow collector", recorded)
	}
	if stopped > 2*time.Second {
		t.Errorf("Shutdown took %v past its 300ms bound", stopped)
	}
	if r.Spans != 12 || r.Dropped() != 12 || r.Err == nil {
		t.Errorf("report %+v: want 12 spans dropped with the reason", r)
	}
	t.Logf("slow collector: Record %v, Shutdown returned after %v, dropped %d (%v)", recorded, stopped, r.Dropped(), r.Err)
}

// The OTEL_EXPORTER_OTLP_* variables and OTEL_SERVICE_NAME: the SDK reads
// the endpoint, the JSON protocol, gzip and the headers.
func TestExporterEnvironment(t *testing.T) {
	recv := otlptest.New(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
	t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20s3cret,x-tenant=mem")
	t.Setenv("OTEL_SERVICE_NAME", "agent-memory")
	if !inspector.ExportEnabled("") {
		t.Fatal("OTEL_EXPORTER_OTLP_ENDPOINT does not turn export on")
	}
	tr := demoTrace(t, looseChungju)
	x := newExporter(t, "")
	x.Record(tr, time.Now(), inspector.SpanOptions{}, nil)
	if r := shutdown(t, x, 10*time.Second); r.Dropped() != 0 || r.Target != recv.URL+"/v1/traces" {
		t.Fatalf("report %+v", r)
	}
	reqs := recv.Requests()
	if len(reqs) != 1 || reqs[0].Err != nil {
		t.Fatalf("requests %+v", reqs)
	}
	q := reqs[0]
	if q.Path != "/v1/traces" || q.ContentType != "application/json" || q.ContentEncoding != "gzip" ||
		q.Header.Get("Authorization") != "Bearer s3cret" || q.Header.Get("X-Tenant") != "mem" {
		t.Errorf("request %s %s %s, headers %v", q.Path, q.ContentType, q.ContentEncoding, q.Header)
	}
	if v, _ := q.Traces.ResourceSpans().At(0).Resource().Attributes().Get("service.name"); v.Str() != "agent-memory" {
		t.Errorf("service.name = %q, want OTEL_SERVICE_NAME's", v.AsString())
	}
	if q.Traces.SpanCount() != 12 {
		t.Errorf("%d spans", q.Traces.SpanCount())
	}
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if inspector.ExportEnabled("http://localhost:4318") {
		t.Error("OTEL_SDK_DISABLED=true leaves export on")
	}
	t.Setenv("OTEL_SDK_DISABLED", "")
	t.Setenv(inspector.EnvCaptureContent, "TRUE")
	if !inspector.CaptureContent() {
		t.Error("the capture-content switch is not read")
	}
}

func TestStoreIDIsStableAndOpaque(t *testing.T) {
	a, b := inspector.StoreID("sqlite:/home/u/memtrace.db"), inspector.StoreID("sqlite:/home/u/memtrace.db")
	if a != b || a == inspector.StoreID("sqlite:/home/u/other.db") || strings.Contains(a, "home") || len(a) != len("memtrace-")+16 {
		t.Errorf("store ids %q %q", a, b)
	}
}
