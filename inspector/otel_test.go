package inspector_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/inspector"
)

var (
	hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)
	hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)
)

func str(t *testing.T, s inspector.Span, key string) string {
	t.Helper()
	v, ok := s.Attr(key)
	if !ok || v.StringValue == nil {
		t.Errorf("span %s: no string attribute %s", s.Name, key)
		return ""
	}
	return *v.StringValue
}

func integer(t *testing.T, s inspector.Span, key string) int {
	t.Helper()
	v, ok := s.Attr(key)
	if !ok || v.IntValue == nil {
		t.Errorf("span %s: no int attribute %s", s.Name, key)
		return -1
	}
	n, err := strconv.Atoi(*v.IntValue)
	if err != nil {
		t.Errorf("span %s: %s = %q is not an integer", s.Name, key, *v.IntValue)
	}
	return n
}

func nanos(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	return n
}

// recordIDs reads gen_ai.memory.records back as the ids it lists, and
// checks every record has content and a score.
func recordIDs(t *testing.T, s inspector.Span) []string {
	t.Helper()
	v, ok := s.Attr("gen_ai.memory.records")
	if !ok || v.ArrayValue == nil {
		t.Fatalf("span %s: no gen_ai.memory.records array", s.Name)
	}
	var ids []string
	for _, rec := range v.ArrayValue.Values {
		fields := map[string]inspector.AnyValue{}
		for _, kv := range rec.KvlistValue.Values {
			fields[kv.Key] = kv.Value
		}
		if fields["content"].StringValue == nil || *fields["content"].StringValue == "" ||
			fields["score"].DoubleValue == nil || *fields["score"].DoubleValue <= 0 {
			t.Errorf("span %s: record without content or score: %+v", s.Name, fields)
			continue
		}
		ids = append(ids, *fields["id"].StringValue)
	}
	return ids
}

// A recall exports as a root search_memory span and one span per stage, in
// stage order, each a child of the root, laid end to end in time, with
// fresh random ids and the GenAI and memtrace attributes.
func TestSpansOfARecall(t *testing.T) {
	d := openDemo(t)
	ctx := context.Background()
	at := d.now.Add(90 * day)
	tr, err := inspector.Recall(ctx, d.e, engine.Query{Text: looseChungju, At: at})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	spans := inspector.Spans(tr, start, inspector.SpanOptions{StoreID: "memtrace-0123456789abcdef", Content: true})
	if len(spans) != 1+len(engine.StageNames) {
		t.Fatalf("%d spans, want a root and %d stages", len(spans), len(engine.StageNames))
	}
	root := spans[0]
	if root.Name != "search_memory" || root.ParentSpanID != "" || !hex32.MatchString(root.TraceID) || !hex16.MatchString(root.SpanID) {
		t.Errorf("root: %+v", root)
	}
	if nanos(t, root.StartTimeUnixNano) != start.UnixNano() {
		t.Errorf("root starts at %s, want %d", root.StartTimeUnixNano, start.UnixNano())
	}
	seen := map[string]bool{root.SpanID: true}
	prevEnd := start.UnixNano()
	for i, s := range spans[1:] {
		st := tr.Stages[i]
		if s.Name != "memtrace.stage."+engine.StageNames[i] || s.ParentSpanID != root.SpanID || s.TraceID != root.TraceID {
			t.Errorf("span %d: name %s parent %s trace %s", i+1, s.Name, s.ParentSpanID, s.TraceID)
		}
		if !hex16.MatchString(s.SpanID) || seen[s.SpanID] {
			t.Errorf("span %s: id %q malformed or repeated", s.Name, s.SpanID)
		}
		seen[s.SpanID] = true
		b, e := nanos(t, s.StartTimeUnixNano), nanos(t, s.EndTimeUnixNano)
		if b != prevEnd || e < b || e-b != int64(st.TookMS*1e6+0.5) {
			t.Errorf("span %s runs %d..%d after %d, took_ms %v", s.Name, b, e, prevEnd, st.TookMS)
		}
		prevEnd = e
		if integer(t, s, "memtrace.stage.in") != st.In || integer(t, s, "memtrace.stage.out") != st.Out {
			t.Errorf("span %s: in/out differ from the trace's %d/%d", s.Name, st.In, st.Out)
		}
		if _, ok := s.Attr("memtrace.dropped"); !ok {
			t.Errorf("span %s lacks memtrace.dropped", s.Name)
		}
	}
	if nanos(t, root.EndTimeUnixNano) != prevEnd {
		t.Errorf("root ends at %s, the last stage at %d", root.EndTimeUnixNano, prevEnd)
	}

	if str(t, root, "gen_ai.operation.name") != "search_memory" || str(t, root, "gen_ai.memory.query.text") != looseChungju ||
		str(t, root, "memtrace.at") != at.Format(time.RFC3339) {
		t.Error("root attributes do not describe the recall")
	}
	if integer(t, root, "memtrace.budget.used_chars") != tr.PromptChars || integer(t, root, "memtrace.budget.budget_chars") != tr.Budget {
		t.Error("root budget attributes differ from the trace")
	}
	var want []string
	for _, s := range tr.Survivors {
		want = append(want, strconv.FormatInt(s.ID, 10))
	}
	budget := spans[len(spans)-1]
	for _, s := range []inspector.Span{root, budget} {
		if got := recordIDs(t, s); strings.Join(got, ",") != strings.Join(want, ",") || len(got) == 0 {
			t.Errorf("span %s records %v, survivors %v", s.Name, got, want)
		}
	}
	// At +90 days the Chungju episodes are forgotten (the loose question
	// does not recognise them): the temporal span counts them and its decay
	// list marks them.
	temporal := spans[1+5-1]
	if temporal.Name != "memtrace.stage.temporal" {
		t.Fatalf("span 5 is %s", temporal.Name)
	}
	dropped, _ := temporal.Attr("memtrace.dropped")
	forgotten := 0
	for _, kv := range dropped.KvlistValue.Values {
		if kv.Key == "forgotten" {
			forgotten, _ = strconv.Atoi(*kv.Value.IntValue)
		}
	}
	if forgotten < 2 || forgotten != inspector.DropCounts(tr.Stages[4])["forgotten"] {
		t.Errorf("temporal memtrace.dropped forgotten = %d", forgotten)
	}
	decay, ok := temporal.Attr("memtrace.decay")
	if !ok || len(decay.ArrayValue.Values) != len(tr.Stages[4].Items) {
		t.Errorf("memtrace.decay lists %v items, the stage %d", decay.ArrayValue, len(tr.Stages[4].Items))
	}
	if integer(t, budget, "memtrace.budget.used_chars") != tr.PromptChars {
		t.Error("budget span used_chars differs from the prompt")
	}

	if integer(t, root, "gen_ai.memory.record.count") != len(tr.Survivors) {
		t.Error("gen_ai.memory.record.count differs from the survivors")
	}
	if v, ok := root.Attr("gen_ai.memory.store.id"); !ok || *v.StringValue != "memtrace-0123456789abcdef" {
		t.Errorf("gen_ai.memory.store.id = %+v", v)
	}

	// Every export of a recall is its own trace: fresh trace and span ids.
	again := inspector.Spans(tr, start, inspector.SpanOptions{})
	if again[0].TraceID == root.TraceID || again[3].SpanID == spans[3].SpanID {
		t.Error("two exports share ids")
	}
	if _, ok := again[0].Attr("gen_ai.memory.store.id"); ok {
		t.Error("gen_ai.memory.store.id without a store id")
	}

	// One ExportTraceServiceRequest line with OTLP/JSON field names.
	var buf bytes.Buffer
	if err := inspector.WriteRequest(&buf, inspector.Request("v1.2.3", spans)); err != nil {
		t.Fatal(err)
	}
	line := buf.String()
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Fatalf("not one line: %q", line)
	}
	var req struct {
		ResourceSpans []struct {
			Resource   struct{ Attributes []map[string]any }
			ScopeSpans []struct {
				Scope struct{ Name, Version string }
				Spans []map[string]any
			}
		}
	}
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.ResourceSpans) != 1 || len(req.ResourceSpans[0].ScopeSpans) != 1 || len(req.ResourceSpans[0].ScopeSpans[0].Spans) != len(spans) {
		t.Fatalf("request shape: %s", line)
	}
	raw := req.ResourceSpans[0].ScopeSpans[0].Spans[0]
	for _, k := range []string{"traceId", "spanId", "name", "kind", "startTimeUnixNano", "endTimeUnixNano", "attributes"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("root span lacks %s", k)
		}
	}
	if !strings.Contains(line, `{"key":"service.name","value":{"stringValue":"memtrace"}}`) ||
		!strings.Contains(line, `{"key":"service.version","value":{"stringValue":"v1.2.3"}}`) ||
		!strings.Contains(line, `"parentSpanId":"`+root.SpanID+`"`) ||
		!strings.Contains(line, `{"key":"gen_ai.operation.name","value":{"stringValue":"search_memory"}}`) {
		t.Errorf("the line does not use the OTLP/JSON shapes:\n%s", line)
	}
}
