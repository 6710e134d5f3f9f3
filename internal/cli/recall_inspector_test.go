package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"memtrace/engine"
	"memtrace/inspector"
)

// demoDB builds the demo database through `memtrace demo --no-tui`.
func demoDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "demo.db")
	if _, stderr, code := runRecallCLI(t, "demo", "--no-tui", "--db", path); code != 0 {
		t.Fatalf("demo: exit %d: %s", code, stderr)
	}
	return path
}

// looseChungju asks about the Chungju trip without saying most of what its
// memories say (cue_score 0.224 < engine.RecognitionCue for m0308, m0441):
// free recall, so the episodes are forgotten by +90d.
const looseChungju = "충주 시 다녀온 뒤 요즘 나눴던 얘기 기억나?"

func TestCompareCLI(t *testing.T) {
	db := demoDB(t)
	out, stderr, code := runRecallCLI(t, "--db", db, "compare", looseChungju, "--at-a", "now", "--at-b", "+90d", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var c inspector.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("not a comparison: %v\n%s", err, out)
	}
	var forgotten []string
	for _, ch := range c.Forgotten {
		forgotten = append(forgotten, ch.Key)
		if ch.DropKind != engine.DropForgotten || ch.Stage != "temporal" {
			t.Errorf("forgotten %s: drop_kind %q, stage %q", ch.Key, ch.DropKind, ch.Stage)
		}
	}
	// m0216 (a 충주 trip note) is at A because the demo's agent recalled
	// 충주 사과 in April (demo_replay.go); by B it has faded with the others,
	// as has the trip episode m0160 ("지난 주말에 충주에 다녀왔어").
	if strings.Join(forgotten, ",") != "m0308,m0160,m0216,m0441" || c.AtA.Format("2006-01-02") != "2026-07-21" ||
		c.AtB.Sub(c.AtA).Hours() != 90*24 {
		t.Errorf("compare: forgotten %v, A %v, B %v", forgotten, c.AtA, c.AtB)
	}
	text, _, _ := runRecallCLI(t, "--db", db, "compare", looseChungju, "--at-b", "+90d")
	if !strings.Contains(text, "forgotten between A and B (4)") || !strings.Contains(text, "forgot at 2026-07-31") {
		t.Errorf("compare text:\n%s", text)
	}
	// The specific cue recognises both apple episodes at +90d: none of them
	// is forgotten (the 충주호 view, which names no apple, may fade).
	if text, _, _ := runRecallCLI(t, "--db", db, "compare", "충주 사과", "--at-b", "+90d"); !strings.Contains(text, "forgotten between A and B") ||
		strings.Contains(text[strings.Index(text, "forgotten between A and B"):strings.Index(text, "rose (")], "사과") {
		t.Errorf("compare 충주 사과 (recognised):\n%s", text)
	}
	if _, stderr, code := runRecallCLI(t, "--db", db, "compare", "x", "--at-b", "+9q"); code != 2 || !strings.Contains(stderr, "--at-b") {
		t.Errorf("bad --at-b: exit %d %q", code, stderr)
	}
}

func TestForecastCLI(t *testing.T) {
	db := demoDB(t)
	out, stderr, code := runRecallCLI(t, "--db", db, "forecast", "--n", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var f forecastOutput
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Forecast) != 3 || f.Forecast[0].Key != "m0308" || f.Forecast[0].ForgetAt.Format("2006-01-02T15:04") != "2026-07-31T09:24" {
		t.Errorf("forecast: %+v", f.Forecast)
	}
	one, _, code := runRecallCLI(t, "--db", db, "forecast", "key:m0308", "--json")
	var m forecastOutput
	if err := json.Unmarshal([]byte(one), &m); code != 0 || err != nil || m.Memory == nil {
		t.Fatalf("forecast key:m0308: exit %d, %v", code, err)
	}
	// Steps: now, +1d, +7d remembered; +30d on forgotten (forget_at is +10d).
	var states []bool
	for _, s := range m.Steps {
		states = append(states, s.Forgotten)
	}
	if len(states) != 6 || states[2] || !states[3] {
		t.Errorf("steps of m0308: %+v", m.Steps)
	}
	// The recognition horizon: four times the free-recall span after the
	// last access; m0308 (an episode of importance 0.4) is still
	// recognisable at +90d and gone at +365d.
	mem, _ := engine.ParseAt("now", m.At)
	if g := m.Memory; !g.UnrecognisableAt.After(g.ForgetAt) || g.Unrecognisable ||
		g.UnrecognisableInDays <= g.InDays || !m.Steps[4].Forgotten || m.Steps[4].Unrecognisable || !m.Steps[5].Unrecognisable {
		t.Errorf("m0308 horizons at %v: forget_at %v, unrecognisable_at %v; steps %+v", mem, g.ForgetAt, g.UnrecognisableAt, m.Steps)
	}
	text, _, _ := runRecallCLI(t, "--db", db, "forecast", "key:m0308")
	if want := "drops out of free recall on " + m.Memory.ForgetAt.Format("2006-01-02") + " (+10.0 days), unrecognisable after " +
		m.Memory.UnrecognisableAt.Format("2006-01-02"); !strings.Contains(text, want) {
		t.Errorf("forecast text lacks %q:\n%s", want, text)
	}
	if _, stderr, code := runRecallCLI(t, "--db", db, "forecast", "key:nope"); code != 1 || !strings.Contains(stderr, "memtrace list") {
		t.Errorf("unknown memory: exit %d %q", code, stderr)
	}
}

// decodeOTLPFile decodes every line of an --otel file with the
// OpenTelemetry Collector's own OTLP/JSON decoder, as its otlpjsonfile
// receiver does.
func decodeOTLPFile(t *testing.T, path string) []ptrace.Traces {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []ptrace.Traces
	var u ptrace.JSONUnmarshaler
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		td, err := u.UnmarshalTraces([]byte(line))
		if err != nil {
			t.Fatalf("line %d: the Collector cannot decode it: %v", i+1, err)
		}
		out = append(out, td)
	}
	return out
}

// spansOf lists the spans of one decoded request, checking the resource.
func spansOf(t *testing.T, td ptrace.Traces) []ptrace.Span {
	t.Helper()
	if td.ResourceSpans().Len() != 1 {
		t.Fatalf("%d resources", td.ResourceSpans().Len())
	}
	rs := td.ResourceSpans().At(0)
	if v, ok := rs.Resource().Attributes().Get("service.name"); !ok || v.Str() != "memtrace" {
		t.Errorf("service.name = %v", v.AsString())
	}
	if v, ok := rs.Resource().Attributes().Get("service.version"); !ok || v.Str() == "" {
		t.Error("service.version missing")
	}
	var spans []ptrace.Span
	for i := 0; i < rs.ScopeSpans().Len(); i++ {
		ss := rs.ScopeSpans().At(i).Spans()
		for j := 0; j < ss.Len(); j++ {
			spans = append(spans, ss.At(j))
		}
	}
	return spans
}

func TestRecallOTelFile(t *testing.T) {
	db := demoDB(t)
	file := filepath.Join(t.TempDir(), "spans.jsonl")
	for range 2 {
		if _, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--at", "+90d", "--otel", file, "--otel-content"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	tds := decodeOTLPFile(t, file)
	if len(tds) != 2 {
		t.Fatalf("%d lines after two recalls, want 2 (appended)", len(tds))
	}
	traceIDs := map[string]bool{}
	spanIDs := map[string]bool{}
	for i, td := range tds {
		spans := spansOf(t, td)
		if len(spans) != 12 {
			t.Fatalf("line %d: %d spans, want the root and 11 stages", i+1, len(spans))
		}
		root := spans[0]
		if root.Name() != "search_memory" || !root.ParentSpanID().IsEmpty() || root.Kind() != ptrace.SpanKindClient {
			t.Errorf("line %d root: %s parent %s kind %v", i+1, root.Name(), root.ParentSpanID(), root.Kind())
		}
		for j, st := range engine.StageNames {
			s := spans[j+1]
			if s.Name() != "memtrace.stage."+st || s.ParentSpanID() != root.SpanID() || s.TraceID() != root.TraceID() {
				t.Errorf("line %d span %d: %s parent %s", i+1, j+1, s.Name(), s.ParentSpanID())
			}
			if s.StartTimestamp() < root.StartTimestamp() || s.EndTimestamp() > root.EndTimestamp() {
				t.Errorf("span %s lies outside its root", s.Name())
			}
		}
		for _, s := range spans {
			if spanIDs[s.SpanID().String()] {
				t.Errorf("span id %s repeated", s.SpanID())
			}
			spanIDs[s.SpanID().String()] = true
		}
		traceIDs[root.TraceID().String()] = true
		attrs := root.Attributes()
		for key, want := range map[string]string{"gen_ai.operation.name": "search_memory", "gen_ai.memory.query.text": "충주 사과"} {
			if v, ok := attrs.Get(key); !ok || v.Str() != want {
				t.Errorf("%s = %q, want %q", key, v.AsString(), want)
			}
		}
		count, ok := attrs.Get("gen_ai.memory.record.count")
		survivors, _ := attrs.Get("memtrace.survivors")
		if !ok || count.Type() != pcommon.ValueTypeInt || count.Int() != survivors.Int() || count.Int() == 0 {
			t.Errorf("gen_ai.memory.record.count = %v (survivors %v)", count.AsString(), survivors.AsString())
		}
		if v, ok := attrs.Get("gen_ai.memory.store.id"); !ok || !regexp.MustCompile(`^memtrace-[0-9a-f]{16}$`).MatchString(v.Str()) {
			t.Errorf("gen_ai.memory.store.id = %q", v.AsString())
		}
		if v, ok := attrs.Get("gen_ai.memory.records"); !ok || v.Slice().Len() != int(count.Int()) {
			t.Errorf("gen_ai.memory.records holds %d records", v.Slice().Len())
		}
	}
	if len(traceIDs) != 2 {
		t.Fatalf("the two recalls share a trace id")
	}

	// Without --otel-content (or the capture-content variable) the file
	// holds no query text and no memory text: the GenAI conventions make
	// both opt-in.
	plain := filepath.Join(t.TempDir(), "plain.jsonl")
	if _, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--otel", plain); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	raw, _ := os.ReadFile(plain)
	if strings.Contains(string(raw), "충주") || strings.Contains(string(raw), "gen_ai.memory.records") || strings.Contains(string(raw), "gen_ai.memory.query.text") {
		t.Errorf("the default export carries content:\n%s", raw)
	}
	if spans := spansOf(t, decodeOTLPFile(t, plain)[0]); len(spans) != 12 {
		t.Errorf("the default export has %d spans", len(spans))
	}

	// compare: each side its own trace; --otel - writes to stdout and the
	// report moves to stderr.
	stdout, stderr, code := runRecallCLI(t, "--db", db, "compare", "충주 사과", "--at-b", "+90d", "--otel", "-")
	if code != 0 {
		t.Fatalf("compare --otel -: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("--otel - created a file named -")
	}
	out := filepath.Join(t.TempDir(), "compare.jsonl")
	if err := os.WriteFile(out, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	sides := decodeOTLPFile(t, out)
	if len(sides) != 2 {
		t.Fatalf("compare wrote %d requests, want one per side", len(sides))
	}
	a, b := spansOf(t, sides[0]), spansOf(t, sides[1])
	if len(a) != 12 || len(b) != 12 || a[0].TraceID() == b[0].TraceID() || traceIDs[a[0].TraceID().String()] || traceIDs[b[0].TraceID().String()] {
		t.Errorf("compare sides: %d and %d spans, trace ids %s %s (recalls had %v)", len(a), len(b), a[0].TraceID(), b[0].TraceID(), traceIDs)
	}
	if !strings.Contains(stderr, "충주") {
		t.Errorf("the comparison report should be on stderr with --otel -: %q", stderr)
	}
}

// Every drop kind is documented where programs look for it: `memtrace help
// json` and the table of docs/inspector.md, with its stage.
func TestDropKindsAreDocumented(t *testing.T) {
	help, _, code := runRecallCLI(t, "help", "json")
	doc, err := os.ReadFile("docs/inspector.md")
	if code != 0 || err != nil {
		t.Fatalf("help json: exit %d; docs/inspector.md: %v", code, err)
	}
	for _, k := range engine.DropKinds() {
		if !regexp.MustCompile(`(?m)^  ` + string(k.Kind) + `\s+` + k.Stage + `\s`).MatchString(help) {
			t.Errorf("memtrace help json does not list %s (%s)", k.Kind, k.Stage)
		}
		if row := "| `" + string(k.Kind) + "` | `" + k.Stage + "` |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/inspector.md lacks the row %s", row)
		}
	}
	if !strings.Contains(string(doc), "`not_retrieved`") {
		t.Error("docs/inspector.md does not explain compare's not_retrieved")
	}
}
