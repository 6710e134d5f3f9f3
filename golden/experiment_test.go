package golden

import (
	"strings"
	"testing"

	"memtrace/engine"
)

func traceWith(drops map[string]engine.DropKind) *engine.Trace {
	st := engine.StageTrace{Name: "temporal"}
	for k, d := range drops {
		st.Items = append(st.Items, engine.TraceItem{Key: k, Text: "text of " + k, DropKind: d})
	}
	return &engine.Trace{Stages: []engine.StageTrace{st}}
}

func TestCompareRanksAndDrops(t *testing.T) {
	s := func(keys ...string) []SurvivorRef {
		var out []SurvivorRef
		for _, k := range keys {
			out = append(out, SurvivorRef{Key: k, Text: k})
		}
		return out
	}
	a := &RunResult{Set: "s", Summary: Summary{Probes: 2, Passed: 2, PassRate: 1}, Probes: []ProbeResult{
		{ID: "p1", Pass: true, Survivors: s("m1", "m2"), Trace: traceWith(map[string]engine.DropKind{"m3": engine.DropForgotten})},
		{ID: "p2", Pass: true, Survivors: s("m1"), Trace: traceWith(nil)},
	}}
	b := &RunResult{Set: "s", Summary: Summary{Probes: 2, Passed: 1, PassRate: 0.5}, Probes: []ProbeResult{
		{ID: "p1", Pass: true, Survivors: s("m2", "m1"), Trace: traceWith(map[string]engine.DropKind{"m3": engine.DropUnrecognisable})},
		{ID: "p2", Pass: false, Survivors: s(), Trace: traceWith(map[string]engine.DropKind{"m1": engine.DropForgotten})},
	}}
	x := Compare(a, b, "A.yaml", "B.yaml")
	if x.Differences != 2 || x.Flipped != 1 || !x.Regressed || x.Probes[0].ID != "p2" {
		t.Fatalf("%+v", x)
	}
	if x.A.MeanSurvivors != 1.5 || x.B.MeanSurvivors != 1 {
		t.Fatalf("figures %+v %+v", x.A, x.B)
	}
	p1 := x.Probes[1]
	if len(p1.Ranks) != 2 || p1.Ranks[0] != (RankMove{Memory: "key:m1", Text: "m1", RankA: 1, RankB: 2}) {
		t.Fatalf("ranks %+v", p1.Ranks)
	}
	// Dropped under both for different reasons: listed once, under A.
	if len(p1.Drops) != 1 || p1.Drops[0].Under != "A" || p1.Drops[0].Kind != engine.DropForgotten || p1.Drops[0].OtherKind != engine.DropUnrecognisable {
		t.Fatalf("drops %+v", p1.Drops)
	}
	p2 := x.Probes[0]
	if len(p2.Drops) != 1 || p2.Drops[0].Under != "B" || p2.Drops[0].OtherKind != "" || p2.Drops[0].Memory != "key:m1" {
		t.Fatalf("drops %+v", p2.Drops)
	}
	if same := Compare(a, a, "A", "A"); same.Differences != 0 || same.Regressed {
		t.Fatalf("a run against itself: %+v", same)
	}
	var w strings.Builder
	x.WriteText(&w)
	for _, want := range []string{"pass → fail  p2", "rank #1 → #2  key:m1", "dropped under B: forgotten at temporal (under the other: not dropped)  key:m1"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, w.String())
		}
	}
}

func TestSweepPlot(t *testing.T) {
	s := &Sweep{Key: "recall.k", Points: []SweepPoint{
		{Value: "2", Figures: Figures{PassRate: 0.5, MeanSurvivors: 2}},
		{Value: "8", Figures: Figures{PassRate: 1, MeanSurvivors: 4}},
	}}
	lines := strings.Split(strings.TrimRight(s.Plot(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "recall.k") {
		t.Fatalf("plot:\n%s", s.Plot())
	}
	full, half := strings.Count(lines[2], "█"), strings.Count(lines[1], "█")
	if full != 48 || half != 24 || !strings.Contains(lines[1], " 50.0%") || !strings.Contains(lines[2], "100.0%") {
		t.Fatalf("bars %d %d:\n%s", full, half, s.Plot())
	}
}
