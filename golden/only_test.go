package golden

import (
	"strings"
	"testing"
)

// A precision probe (`only`) fails on every survivor that matches none of
// its selectors, counts them as stray_survivors, and the summary averages
// the strays over the precision probes alone.
func TestOnlyCountsStraySurvivors(t *testing.T) {
	tr := appleTrace() // survivors: m0040 (peanuts, hot), m0012 (충주 사과)
	clean := Evaluate(Probe{ID: "clean", Expect: Expect{Only: []Selector{sel(t, "key:m0012"), sel(t, "tier:hot")}}}, tr)
	if !clean.Pass || clean.Metrics[MetricStraySurvivors] != 0 {
		t.Fatalf("clean: pass %v, strays %v, failures %v", clean.Pass, clean.Metrics[MetricStraySurvivors], clean.Failures)
	}
	stray := Evaluate(Probe{ID: "stray", Expect: Expect{Only: []Selector{sel(t, "text:충주")}}}, tr)
	if stray.Pass || stray.Metrics[MetricStraySurvivors] != 1 || len(stray.Failures) != 1 ||
		!strings.Contains(stray.Failures[0], `only ["text:충주"]`) || !strings.Contains(stray.Failures[0], "key:m0040") {
		t.Fatalf("stray: pass %v, strays %v, failures %q", stray.Pass, stray.Metrics[MetricStraySurvivors], stray.Failures)
	}
	plain := Evaluate(Probe{ID: "plain", Expect: Expect{Present: []Selector{sel(t, "key:m0012")}}}, tr)
	if _, ok := plain.Metrics[MetricStraySurvivors]; ok {
		t.Fatal("a probe without only has a stray count")
	}
	s := summarize([]ProbeResult{clean, stray, plain})
	if s.PrecisionProbes != 2 || s.StraySurvivors != 1 || s.MeanStraySurvivors == nil || *s.MeanStraySurvivors != 0.5 {
		t.Fatalf("summary: %d precision probes, %d strays, mean %v", s.PrecisionProbes, s.StraySurvivors, s.MeanStraySurvivors)
	}
	if got := (Expect{Only: []Selector{sel(t, "key:m0012"), sel(t, "tier:hot")}}).Terms(); len(got) != 1 || got[0] != "only key:m0012, tier:hot" {
		t.Fatalf("Terms() = %q", got)
	}
	if s := summarize([]ProbeResult{plain}); s.MeanStraySurvivors != nil || s.PrecisionProbes != 0 {
		t.Fatalf("no precision probe, summary %+v", s)
	}
}

func TestOnlyParses(t *testing.T) {
	set, err := Parse([]byte(`name: x
probes:
  - id: p
    query: "what medication do I take"
    expect: {present: ["key:m0075"], only: ["key:m0075", "type:health"]}
`), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if o := set.Probes[0].Expect.Only; len(o) != 2 || o[1].String() != "type:health" {
		t.Fatalf("only = %v", o)
	}
	_, err = Parse([]byte(`name: x
probes:
  - id: p
    query: "q"
    expect: {only: []}
  - id: r
    query: "q"
    expect: {only: ["colour:red"]}
`), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "line 5") || !strings.Contains(err.Error(), "only needs at least one selector") ||
		!strings.Contains(err.Error(), "line 8") {
		t.Fatalf("err = %v", err)
	}
}
