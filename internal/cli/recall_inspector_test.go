package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	// 충주 사과 in April (demo_replay.go); by B it has faded with the others.
	if strings.Join(forgotten, ",") != "m0308,m0216,m0441" || c.AtA.Format("2006-01-02") != "2026-07-21" ||
		c.AtB.Sub(c.AtA).Hours() != 90*24 {
		t.Errorf("compare: forgotten %v, A %v, B %v", forgotten, c.AtA, c.AtB)
	}
	text, _, _ := runRecallCLI(t, "--db", db, "compare", looseChungju, "--at-b", "+90d")
	if !strings.Contains(text, "forgotten between A and B (3)") || !strings.Contains(text, "forgot at 2026-07-31") {
		t.Errorf("compare text:\n%s", text)
	}
	// The specific cue recognises both episodes at +90d: nothing forgotten.
	if text, _, _ := runRecallCLI(t, "--db", db, "compare", "충주 사과", "--at-b", "+90d"); !strings.Contains(text, "forgotten between A and B (0)") {
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
	if _, stderr, code := runRecallCLI(t, "--db", db, "forecast", "key:nope"); code != 1 || !strings.Contains(stderr, "memtrace list") {
		t.Errorf("unknown memory: exit %d %q", code, stderr)
	}
}

func TestRecallOTelFile(t *testing.T) {
	db := demoDB(t)
	file := filepath.Join(t.TempDir(), "spans.jsonl")
	if _, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--at", "+90d", "--otel", file); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var spans []inspector.Span
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s inspector.Span
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("line %d: %v", len(spans)+1, err)
		}
		spans = append(spans, s)
	}
	if len(spans) != 12 || spans[0].Name != "search_memory" || spans[11].Name != "memtrace.stage.budget" ||
		spans[11].ParentSpanID != spans[0].SpanID {
		t.Fatalf("%d spans: %+v", len(spans), spans)
	}
	compareFile := filepath.Join(t.TempDir(), "compare.jsonl")
	if _, stderr, code := runRecallCLI(t, "--db", db, "compare", "충주 사과", "--at-b", "+90d", "--otel", compareFile); code != 0 {
		t.Fatalf("compare --otel: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(compareFile)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	// Two recalls; the one at B is the recall above, under the same ids.
	if len(lines) != 24 || !strings.Contains(lines[12], `"traceId":"`+spans[0].TraceID+`"`) {
		t.Errorf("compare --otel: %d lines; B's trace id should be %s", len(lines), spans[0].TraceID)
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
