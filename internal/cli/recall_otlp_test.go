package cli

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"memtrace/internal/testdata/otlptest"
)

// TestRecallOTLPEndpoint: --otlp-endpoint sends the spans through the SDK
// (OTLP/HTTP protobuf) to a loopback receiver that decodes them with the
// Collector's decoder; a 503 with Retry-After is retried and compare's two
// traces both arrive; a slow or refusing collector costs the command at
// most the flush timeout and a line on stderr, never the recall.
func TestRecallOTLPEndpoint(t *testing.T) {
	db := demoDB(t)
	recv := otlptest.New(t)
	stdout, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--otlp-endpoint", recv.URL)
	if code != 0 || !strings.Contains(stdout, "충주") || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	reqs := recv.Requests()
	if len(reqs) != 1 || reqs[0].Err != nil || reqs[0].Path != "/v1/traces" || reqs[0].ContentType != "application/x-protobuf" || reqs[0].Traces.SpanCount() != 12 {
		t.Fatalf("collector received %+v, want 12 spans posted as protobuf to /v1/traces", reqs)
	}
	for _, s := range recv.Accepted() {
		if _, ok := s.Attributes().Get("gen_ai.memory.query.text"); ok {
			t.Errorf("span %s carries the query without the opt-in", s.Name())
		}
	}

	// 503 (Retry-After: 1) then 200: compare's two traces, every span.
	busy := otlptest.New(t)
	busy.Refuse(1, 503, 1)
	began := time.Now()
	if _, stderr, code := runRecallCLI(t, "--db", db, "compare", "충주 사과", "--at-b", "+90d", "--otlp-endpoint", busy.URL); code != 0 || stderr != "" {
		t.Fatalf("compare against a busy collector: exit %d, %q", code, stderr)
	}
	spans := busy.Accepted()
	traces := map[string]bool{}
	for _, s := range spans {
		traces[s.TraceID().String()] = true
	}
	if len(spans) != 24 || len(traces) != 2 || busy.Requests()[0].Status != 503 {
		t.Errorf("after a 503 the collector has %d spans in %d traces, want both recalls' 24 in 2", len(spans), len(traces))
	}
	t.Logf("503 (Retry-After: 1) then 200: compare delivered %d spans in %v", len(spans), time.Since(began).Round(time.Millisecond))

	// A collector that does not answer: the command ends at the flush
	// timeout, before the collector would have answered, and says what it
	// dropped; the recall itself was printed.
	slow := otlptest.New(t)
	slow.Slow(3 * time.Second)
	t.Setenv("OTEL_BSP_EXPORT_TIMEOUT", "500")
	began = time.Now()
	stdout, stderr, code = runRecallCLI(t, "--db", db, "recall", "충주 사과", "--otlp-endpoint", slow.URL)
	took := time.Since(began)
	if code != 0 || !strings.Contains(stdout, "충주") || !strings.Contains(stderr, "12 of 12 spans not delivered") || took > 2500*time.Millisecond {
		t.Errorf("slow collector: exit %d after %v, stdout %q, stderr %q", code, took, stdout, stderr)
	}
	t.Logf("slow collector (3 s): recall returned after %v: %s", took.Round(time.Millisecond), strings.TrimSpace(stderr))

	// A collector that refuses for good (400, not retried).
	refusing := otlptest.New(t)
	refusing.Refuse(5, 400, 0)
	if _, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--otlp-endpoint", refusing.URL); code != 0 || !strings.Contains(stderr, "400") {
		t.Errorf("a refusing collector: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runRecallCLI(t, "--db", db, "recall", "x", "--otlp-endpoint", "localhost:4318"); code == 0 || !strings.Contains(stderr, "http://localhost:4318") {
		t.Errorf("an endpoint without a scheme: exit %d, %q", code, stderr)
	}
}

// An agent's recall through `memtrace mcp --otlp-endpoint` arrives at the
// collector as a child of the traceparent the client put in the call's
// _meta, with no query text unless the user opted in; with the opt-in the
// text is there, neutralised.
func TestMCPRecallContinuesClientTrace(t *testing.T) {
	db := demoDB(t)
	const (
		clientTrace = "0af7651916cd43dd8448eb211c80319c"
		clientSpan  = "b7ad6b7169203331"
	)
	var first []otlptest.Request // the requests of the first run, whose collector refuses once
	mcpRecall := func(t *testing.T, query string, flags ...string) ([]ptrace.Span, string) {
		t.Helper()
		recv := otlptest.New(t)
		if first == nil {
			recv.Refuse(1, 503, 1)
			defer func() { first = recv.Requests() }()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		var errOut strings.Builder
		done := make(chan int, 1)
		args := append([]string{"--db", db, "mcp", "--otlp-endpoint", recv.URL}, flags...)
		go func() {
			code := run(ctx, args, inR, outW, &errOut)
			outW.Close()
			done <- code
		}()
		client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
		if err != nil {
			t.Fatalf("initialize: %v", err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"query": query},
			Meta: mcp.Meta{"traceparent": "00-" + clientTrace + "-" + clientSpan + "-01", "tracestate": "agent=1"}})
		if err != nil || res.IsError {
			t.Fatalf("memory_recall: %v %s", err, toolText(res))
		}
		cs.Close()
		if code := <-done; code != 0 {
			t.Fatalf("mcp exit %d: %s", code, errOut.String())
		}
		return recv.Accepted(), errOut.String()
	}

	// The first collector answers 503 (Retry-After: 1) once, then 200: it
	// still gets every span.
	spans, stderr := mcpRecall(t, "충주 사과")
	if len(spans) != 12 {
		t.Fatalf("the collector has %d spans, want the root and 11 stages (stderr %q)", len(spans), stderr)
	}
	var statuses []int
	for _, r := range first {
		statuses = append(statuses, r.Status)
	}
	if len(statuses) < 2 || statuses[0] != 503 {
		t.Errorf("the collector answered %v: want a 503, then the retry", statuses)
	}
	var root ptrace.Span
	for _, s := range spans {
		if s.Name() == "search_memory" {
			root = s
		}
		if s.TraceID().String() != clientTrace {
			t.Errorf("span %s in trace %s, not the client's", s.Name(), s.TraceID())
		}
	}
	if root.ParentSpanID().String() != clientSpan || root.TraceState().AsRaw() != "agent=1" {
		t.Errorf("root parent %s (state %q), want the client's span %s", root.ParentSpanID(), root.TraceState().AsRaw(), clientSpan)
	}
	for _, s := range spans {
		if s.Name() != "search_memory" && s.ParentSpanID() != root.SpanID() {
			t.Errorf("stage %s is not a child of the root", s.Name())
		}
		if _, ok := s.Attributes().Get("gen_ai.memory.query.text"); ok {
			t.Errorf("span %s carries the query without the opt-in", s.Name())
		}
	}

	spans, _ = mcpRecall(t, "충주 사과\x1b[2J\x07", "--otel-content")
	found := false
	for _, s := range spans {
		if v, ok := s.Attributes().Get("gen_ai.memory.query.text"); ok {
			found = true
			if strings.ContainsAny(v.Str(), "\x1b\x07") || !strings.HasPrefix(v.Str(), "충주 사과") {
				t.Errorf("query text %q is not neutralised", v.Str())
			}
		}
	}
	if !found {
		t.Error("--otel-content did not export the query text")
	}
}
