package golden

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"memtrace/engine"
)

func sel(t *testing.T, raw string) Selector {
	t.Helper()
	s, err := ParseSelector(raw)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func intp(n int) *int           { return &n }
func floatp(f float64) *float64 { return &f }

// appleTrace is a recall whose budget kept two memories, one of them from
// the guaranteed channel, and cut a third.
func appleTrace() *engine.Trace {
	return &engine.Trace{
		Query: "충주 사과", K: 3, Budget: 200,
		At: time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC),
		Stages: []engine.StageTrace{
			{Name: "exclude", Items: []engine.TraceItem{
				{ID: 9, Key: "m0009", Text: "quarantined milestone", Type: "milestone", Dropped: "status quarantined"},
			}},
			{Name: "merge", Items: []engine.TraceItem{
				{ID: 12, Key: "m0012", Text: "작년 충주에서 먹은 사과가 맛있었다", Type: "preference", Kind: engine.KindEpisode},
				{ID: 40, Key: "m0040", Text: "User is allergic to peanuts", Type: "health", Kind: engine.KindFact, Tier: engine.TierHot},
				{ID: 41, Key: "m0041", Text: "충주 사과 농장 이름은 햇살농원", Type: "note", Kind: engine.KindFact},
			}},
			{Name: "budget", Items: []engine.TraceItem{
				{ID: 12, Key: "m0012"}, {ID: 40, Key: "m0040"},
				{ID: 41, Key: "m0041", Text: "충주 사과 농장 이름은 햇살농원", Dropped: "over budget (212 > 200 chars)"},
			}},
		},
		Prompt:      "<memories>\n- 작년 충주에서 먹은 사과가 맛있었다\n- User is allergic to peanuts\n</memories>",
		PromptChars: 150,
		Survivors: []engine.Survivor{
			{ID: 40, Key: "m0040", Text: "User is allergic to peanuts", Type: "health", Kind: engine.KindFact, Tier: engine.TierHot, Channel: "guaranteed"},
			{ID: 12, Key: "m0012", Text: "작년 충주에서 먹은 사과가 맛있었다", Type: "preference", Kind: engine.KindEpisode, Channel: "semantic"},
		},
		Guaranteed: 1,
	}
}

func TestEvaluate(t *testing.T) {
	t.Run("Pass", func(t *testing.T) {
		pr := Probe{ID: "apple", Query: "충주 사과", Expect: Expect{
			Present:       []Selector{sel(t, "key:m0012"), sel(t, "text:PEANUTS"), sel(t, "tier:hot")},
			Absent:        []Selector{sel(t, "type:milestone"), sel(t, "id:9")},
			MaxGuaranteed: intp(1), MinSurvivors: intp(2), MaxPromptChars: intp(150),
		}}
		res := Evaluate(pr, appleTrace())
		if !res.Pass || len(res.Failures) != 0 {
			t.Fatalf("want pass, got failures %q", res.Failures)
		}
		if res.Metrics[MetricPresentRecall] != 1 || res.Metrics[MetricGuaranteed] != 1 || res.Metrics[MetricPromptChars] != 150 || res.Metrics[MetricSurvivors] != 2 {
			t.Fatalf("metrics %v", res.Metrics)
		}
		if len(res.Survivors) != 2 || res.Survivors[0] != (SurvivorRef{ID: 40, Key: "m0040", Text: "User is allergic to peanuts"}) {
			t.Fatalf("survivors %+v", res.Survivors)
		}
	})
	t.Run("PresentMissingSaysWhere", func(t *testing.T) {
		pr := Probe{ID: "farm", Expect: Expect{Present: []Selector{sel(t, "key:m0041"), sel(t, "key:m0012"), sel(t, "text:never stored")}}}
		res := Evaluate(pr, appleTrace())
		if res.Pass || len(res.Failures) != 2 {
			t.Fatalf("failures %q", res.Failures)
		}
		want0 := `present "key:m0041": not among the 2 survivors; dropped at stage budget (over budget (212 > 200 chars)): #41 key:m0041 "충주 사과 농장 이름은 햇살농원"`
		if res.Failures[0] != want0 {
			t.Fatalf("failure\n got %s\nwant %s", res.Failures[0], want0)
		}
		if res.Failures[1] != `present "text:never stored": not among the 2 survivors; never a candidate` {
			t.Fatalf("failure %s", res.Failures[1])
		}
		if got := res.Metrics[MetricPresentRecall]; math.Abs(got-1.0/3) > 1e-6 {
			t.Fatalf("present recall %v", got)
		}
	})
	t.Run("AbsentViolated", func(t *testing.T) {
		pr := Probe{ID: "greeting", Expect: Expect{Absent: []Selector{sel(t, "type:health")}}}
		res := Evaluate(pr, appleTrace())
		want := []string{`absent "type:health": matched survivor 1 #40 key:m0040 type:health "User is allergic to peanuts"`}
		if res.Pass || strings.Join(res.Failures, "\n") != strings.Join(want, "\n") {
			t.Fatalf("failures %q", res.Failures)
		}
	})
	t.Run("LimitsViolated", func(t *testing.T) {
		pr := Probe{ID: "greeting", Expect: Expect{MaxGuaranteed: intp(0), MinSurvivors: intp(3), MaxPromptChars: intp(100)}}
		res := Evaluate(pr, appleTrace())
		want := []string{
			"max_guaranteed 0: 1 guaranteed memories in the prompt",
			"min_survivors 3: only 2 survived the budget",
			"max_prompt_chars 100: the prompt has 150 characters",
		}
		if res.Pass || strings.Join(res.Failures, "\n") != strings.Join(want, "\n") {
			t.Fatalf("failures %q", res.Failures)
		}
	})
	t.Run("ControlSequencesNeutralised", func(t *testing.T) {
		tr := appleTrace()
		tr.Survivors[0].Text = "evil \x1b]0;pwned\x07 text"
		res := Evaluate(Probe{ID: "x", Expect: Expect{Absent: []Selector{sel(t, "key:m0040")}}}, tr)
		if strings.ContainsAny(res.Failures[0], "\x1b\x07") {
			t.Fatalf("control sequence leaked: %q", res.Failures[0])
		}
	})
	t.Run("RankingMetrics", func(t *testing.T) {
		pr := Probe{ID: "rank", K: 2, Expect: Expect{
			Relevant:     []Graded{{sel(t, "key:m0012"), 3}, {sel(t, "key:m0041"), 1}},
			MinRecallAtK: floatp(0.6), MinMRR: floatp(0.5), MinNDCG: floatp(0.5),
		}}
		res := Evaluate(pr, appleTrace())
		// Survivors: m0040 (not relevant), m0012 (grade 3) → recall@2 = 1/2,
		// MRR = 1/2, DCG = 7/log2(3), IDCG = 7 + 1/log2(3).
		wantNDCG := (7 / math.Log2(3)) / (7 + 1/math.Log2(3))
		if res.Metrics[MetricRecallAtK] != 0.5 || res.Metrics[MetricMRR] != 0.5 || math.Abs(res.Metrics[MetricNDCG]-wantNDCG) > 1e-6 {
			t.Fatalf("metrics %v (want ndcg %v)", res.Metrics, wantNDCG)
		}
		// Before the budget (merge order m0012, m0040, m0041) with k=2:
		// recall 1/2, MRR 1, DCG = 7 = IDCG's first term.
		wantPre := 7 / (7 + 1/math.Log2(3))
		if res.Metrics[MetricPreBudgetRecallAtK] != 0.5 || res.Metrics[MetricPreBudgetMRR] != 1 || math.Abs(res.Metrics[MetricPreBudgetNDCG]-wantPre) > 1e-6 {
			t.Fatalf("pre-budget metrics %v", res.Metrics)
		}
		if res.Pass || len(res.Failures) != 1 || res.Failures[0] != "min_recall_at_k 0.6: got 0.500 over the survivors (k=2)" {
			t.Fatalf("failures %q", res.Failures)
		}
	})
}

func TestScoreRanking(t *testing.T) {
	items := func(keys ...string) []item {
		out := make([]item, len(keys))
		for i, k := range keys {
			out[i] = item{ID: int64(i + 1), Key: k}
		}
		return out
	}
	rel := []Graded{{sel(t, "key:a"), 2}, {sel(t, "key:b"), 1}}
	for _, tc := range []struct {
		name           string
		ranked         []item
		k              int
		recall, mrr, n float64
	}{
		{"Ideal", items("a", "b", "x"), 3, 1, 1, 1},
		{"Swapped", items("b", "a"), 2, 1, 1, (1 + 3/math.Log2(3)) / (3 + 1/math.Log2(3))},
		{"ThirdOnly", items("x", "y", "a"), 3, 0.5, 1.0 / 3, (3 / 2.0) / (3 + 1/math.Log2(3))},
		{"CutByK", items("x", "y", "a"), 2, 0, 1.0 / 3, 0},
		{"None", items("x"), 5, 0, 0, 0},
		{"Empty", nil, 3, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := scoreRanking(tc.ranked, rel, tc.k)
			if math.Abs(m.RecallAtK-tc.recall) > 1e-9 || math.Abs(m.MRR-tc.mrr) > 1e-9 || math.Abs(m.NDCG-tc.n) > 1e-9 {
				t.Fatalf("got %+v, want recall %v mrr %v ndcg %v", m, tc.recall, tc.mrr, tc.n)
			}
		})
	}
	// Two selectors naming the same memory count it once.
	t.Run("OneMemoryTwoSelectors", func(t *testing.T) {
		both := []Graded{{sel(t, "key:a"), 1}, {sel(t, "text:apple"), 1}}
		m := scoreRanking([]item{{Key: "a", Text: "apple"}}, both, 2)
		if m.RecallAtK != 0.5 || m.NDCG > 1 {
			t.Fatalf("got %+v", m)
		}
	})
}

type fakeRecaller struct {
	traces map[string]*engine.Trace
	fail   map[string]error
	got    []engine.Query
}

func (f *fakeRecaller) Recall(ctx context.Context, q engine.Query) (*engine.Trace, error) {
	f.got = append(f.got, q)
	if err := f.fail[q.Text]; err != nil {
		return nil, err
	}
	t := *f.traces[q.Text]
	t.At = q.At
	return &t, nil
}

func TestRun(t *testing.T) {
	set := &Set{Name: "demo", Defaults: Defaults{At: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC), K: 3}, Probes: []Probe{
		{ID: "apple", Query: "충주 사과", AtRelative: true, AtOffset: 30 * 24 * time.Hour, Expect: Expect{Present: []Selector{sel(t, "key:m0012")}}},
		{ID: "greeting", Query: "안녕", Expect: Expect{Present: []Selector{sel(t, "key:nope")}, MaxGuaranteed: intp(0)}},
		{ID: "broken", Query: "boom", Expect: Expect{Present: []Selector{sel(t, "key:m0012")}}},
	}}
	rec := &fakeRecaller{
		traces: map[string]*engine.Trace{"충주 사과": appleTrace(), "안녕": appleTrace()},
		fail:   map[string]error{"boom": errors.New("index not loaded")},
	}
	var progress []int
	res, err := (&Runner{}).Run(context.Background(), set, rec, func(done, total int) {
		if total != 3 {
			t.Errorf("total %d", total)
		}
		progress = append(progress, done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 3 || progress[2] != 3 {
		t.Fatalf("progress %v", progress)
	}
	q := rec.got[0]
	if !q.At.Equal(time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)) || q.K != 3 || q.Budget != engine.DefaultConfig().Budget || !q.ReadOnly {
		t.Fatalf("query %+v", q)
	}
	ids := []string{}
	for _, p := range res.Probes {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "apple,greeting,broken" || !res.Probes[0].Pass || res.Probes[1].Pass || res.Probes[2].Pass {
		t.Fatalf("probes %+v", res.Probes)
	}
	if res.Probes[2].Failures[0] != "recall failed: index not loaded" {
		t.Fatalf("broken failures %q", res.Probes[2].Failures)
	}
	s := res.Summary
	// present: apple 1/1, greeting 0/1, broken 0/1 → 1/3.
	if s.Probes != 3 || s.Passed != 1 || s.Failed != 2 || s.Errors != 1 || math.Abs(s.PassRate-0.333333) > 1e-9 ||
		math.Abs(s.PresentRecall-0.333333) > 1e-9 || math.Abs(s.MeanGuaranteed-0.666667) > 1e-9 || s.MeanPromptChars != 100 || s.MeanMRR != nil {
		t.Fatalf("summary %+v", s)
	}

	var a, b strings.Builder
	if err := res.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"summary": {`, `"probes": 3`, `"pass_rate": 0.333333`, `"present_recall"`, `"mean_guaranteed"`, `"mean_prompt_chars": 100`,
		`"id": "apple"`, `"pass": true`, `"failures": []`, `"survivors": [`, `"key": "m0040"`, `"metrics": {`, `"guaranteed": 1`} {
		if !strings.Contains(a.String(), key) {
			t.Errorf("run JSON lacks %s", key)
		}
	}
	res2, _ := (&Runner{}).Run(context.Background(), set, rec, nil)
	res2.WriteJSON(&b)
	if a.String() != b.String() {
		t.Fatal("two runs of the same set differ")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Runner{}).Run(ctx, set, rec, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
}
