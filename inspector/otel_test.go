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
// deterministic ids and the GenAI and memtrace attributes.
func TestSpansOfARecall(t *testing.T) {
	d := openDemo(t)
	ctx := context.Background()
	at := d.now.Add(90 * day)
	tr, err := inspector.Recall(ctx, d.e, engine.Query{Text: looseChungju, At: at})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 7, 21, 9, 0, 0, 0, time.UTC)
	spans := inspector.Spans(tr, start)
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

	// The same recall exports under the same ids; another time under others.
	again, _ := inspector.Recall(ctx, d.e, engine.Query{Text: looseChungju, At: at})
	if s2 := inspector.Spans(again, start.Add(time.Hour)); s2[0].TraceID != root.TraceID || s2[3].SpanID != spans[3].SpanID {
		t.Error("span ids differ for the same query and at")
	}
	now, _ := inspector.Recall(ctx, d.e, engine.Query{Text: looseChungju, At: d.now})
	if inspector.TraceID(now) == root.TraceID {
		t.Error("the same trace id at two different times")
	}

	// JSON lines with OTLP/JSON field names.
	var buf bytes.Buffer
	if err := inspector.WriteSpans(&buf, spans); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(spans) {
		t.Fatalf("%d lines for %d spans", len(lines), len(spans))
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"traceId", "spanId", "name", "kind", "startTimeUnixNano", "endTimeUnixNano", "attributes"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("root line lacks %s: %s", k, lines[0])
		}
	}
	if !strings.Contains(lines[1], `"parentSpanId":"`+root.SpanID+`"`) ||
		!strings.Contains(lines[0], `{"key":"gen_ai.operation.name","value":{"stringValue":"search_memory"}}`) {
		t.Errorf("lines do not use the OTLP/JSON shapes:\n%s\n%s", lines[0], lines[1])
	}
}
