package recall_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
)

func TestRecallRunsTheElevenStagesInOrder(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	tr := enginetest.Recall(t, e, enginetest.ReadOnly("충주 시에 충주 사과가 맛있었지?"))
	var names []string
	for _, st := range tr.Stages {
		names = append(names, st.Name)
	}
	if !slices.Equal(names, engine.StageNames[:]) {
		t.Fatalf("stages = %v, want %v", names, engine.StageNames)
	}
	for i, st := range tr.Stages {
		if i < 2 {
			continue // preprocess counts words; candidates is the pool itself
		}
		if prev := tr.Stages[i-1]; st.In != prev.Out {
			t.Errorf("%s.in = %d, but %s.out = %d", st.Name, st.In, prev.Name, prev.Out)
		}
		kept, dropped := 0, 0
		for _, it := range st.Items {
			if it.Dropped != "" {
				dropped++
			} else {
				kept++
			}
			if it.Scores == nil {
				t.Errorf("%s: item %s has no scores", st.Name, it.Key)
			}
			for name := range it.Scores {
				if strings.Contains(name, "distance") {
					t.Errorf("%s: item %s shows a distance %q", st.Name, it.Key, name)
				}
			}
		}
		if kept != st.Out || kept+dropped != st.In {
			t.Errorf("%s: in %d out %d, but items show %d kept and %d dropped", st.Name, st.In, st.Out, kept, dropped)
		}
	}
	if got := tr.Stage("budget").Out; got != len(tr.Survivors) || got == 0 {
		t.Errorf("budget.out = %d, survivors = %d", got, len(tr.Survivors))
	}
	if it, ok := enginetest.Item(tr, "temporal", "m0216"); !ok || it.Scores["final_score"] <= 0 || it.Scores["decay"] <= 0 {
		t.Errorf("temporal shows m0216 as %+v", it)
	}
}

func TestPreprocessStripsStopWordsAndParticles(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.Add(t, e, engine.Memory{Content: "memtrace 프로젝트 진행 상황: 스토어 완료", CreatedAt: enginetest.DemoNow.Add(-day)})
	tr := enginetest.Recall(t, e, enginetest.ReadOnly("그 프로젝트의 진행 상황을 알려줘"))
	st := tr.Stage("preprocess")
	if got := st.Notes["surface"]; got != "프로젝트 진행 상황" {
		t.Errorf("surface = %q, want %q", got, "프로젝트 진행 상황")
	}
	if got := st.Notes["dropped_words"]; got != "그 알려줘" {
		t.Errorf("dropped_words = %q, want %q", got, "그 알려줘")
	}
	if st.In != 5 || st.Out != 3 {
		t.Errorf("preprocess in/out = %d/%d, want 5/3", st.In, st.Out)
	}
}

// TestGuaranteedChannelIsGatedByRelevance is seed 001's failure: two
// importance-1.0 milestones in the HOT tier must not ride along with a
// greeting or an unrelated request.
func TestGuaranteedChannelIsGatedByRelevance(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	for _, q := range []string{"안녕", "배가 아파", "디버깅 도와줘", "hi"} {
		t.Run(q, func(t *testing.T) {
			tr := enginetest.Recall(t, e, enginetest.ReadOnly(q))
			if tr.Guaranteed != 0 {
				t.Errorf("guaranteed = %d, want 0", tr.Guaranteed)
			}
			for _, s := range tr.Survivors {
				if s.Type == "milestone" {
					t.Errorf("milestone %s (%s) reached the prompt", s.Key, s.Text)
				}
			}
			for _, key := range enginetest.HotMilestones {
				it, ok := enginetest.Item(tr, "guaranteed", key)
				if !ok || it.DropKind != engine.DropBelowGate {
					t.Errorf("%s at the guaranteed stage: %+v, want dropped by the gate", key, it)
				}
			}
			if strings.Contains(tr.Prompt, "마라톤") || strings.Contains(tr.Prompt, "반지") {
				t.Errorf("prompt carries a milestone:\n%s", tr.Prompt)
			}
		})
	}
	t.Run("relevant milestone is guaranteed", func(t *testing.T) {
		tr := enginetest.Recall(t, e, enginetest.ReadOnly("수진이랑 10주년 기념 반지 선물"))
		if tr.Guaranteed != 1 {
			t.Errorf("guaranteed = %d, want 1", tr.Guaranteed)
		}
		if len(tr.Survivors) == 0 || tr.Survivors[0].Key != "m0369" || tr.Survivors[0].Channel != recall.ChannelGuaranteed {
			t.Errorf("survivors = %+v, want m0369 first through the guaranteed channel", tr.Survivors)
		}
	})
}

func TestChungjuAppleIsRecalled(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	tr := enginetest.Recall(t, e, enginetest.ReadOnly("충주 시에 충주 사과가 맛있었지?"))
	if len(tr.Survivors) == 0 || tr.Survivors[0].Key != "m0216" {
		t.Fatalf("충주 사과 (m0216) is not the first survivor: %v", enginetest.SurvivorKeys(tr))
	}
	if !strings.Contains(tr.Prompt, "충주 사과가 정말 달고 맛있었어") {
		t.Errorf("prompt lacks the apple memory:\n%s", tr.Prompt)
	}
	for _, key := range []string{"m0218", "m0441"} { // the box for mom, apple picking
		if !slices.Contains(enginetest.SurvivorKeys(tr), key) {
			t.Errorf("%s not recalled with the apples: %v", key, enginetest.SurvivorKeys(tr))
		}
	}
}

// TestCommittedRecallStrengthensAssociations: a live recall of the apples
// records the access and boosts the memories similar to it, which then rank
// higher for a related question — with the default configuration: the
// hashed embedder scores related Korean sentences at cosine 0.25–0.35, and
// τ defaults to 0.25 for that reason. 충주호 (m0162) shares no term with the
// apples and stays unassociated (cosine 0.01).
func TestCommittedRecallStrengthensAssociations(t *testing.T) {
	ctx := context.Background()
	cfg := engine.DefaultConfig()
	e, db := enginetest.OpenConfig(t, "", enginetest.DemoNow, cfg)
	labels := enginetest.LoadDemo(t, e)
	probe := engine.Query{Text: "충주", ReadOnly: true, K: 20, Budget: 10000}
	before := enginetest.Recall(t, e, probe)

	live := engine.Query{Text: "충주 시에 충주 사과가 맛있었지?", K: 1}
	committed := enginetest.Recall(t, e, live)
	if got := enginetest.SurvivorKeys(committed); !slices.Equal(got, []string{"m0216"}) {
		t.Fatalf("committed recall survivors = %v, want [m0216]", got)
	}
	apple, _ := e.MemoryByKey("m0216")
	stored, err := db.GetMemory(ctx, apple.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.AccessCount != 1 || !stored.LastAccessedAt.Equal(enginetest.DemoNow) {
		t.Errorf("m0216 after a committed recall: access_count %d, last_accessed_at %v", stored.AccessCount, stored.LastAccessedAt)
	}

	after := enginetest.Recall(t, e, probe)
	for _, key := range []string{"m0218", "m0308"} { // the box for mom, mom wants more
		if !slices.Contains(labels.Association["chungju"], key) {
			t.Fatalf("%s is not labelled as a chungju association", key)
		}
		nb, _ := e.MemoryByKey(key)
		if nb.Boost != cfg.AssocBoost || !nb.BoostAt.Equal(enginetest.DemoNow) || nb.AccessCount != 0 {
			t.Errorf("%s: boost %v at %v (access %d), want %v at %v", key, nb.Boost, nb.BoostAt, nb.AccessCount, cfg.AssocBoost, enginetest.DemoNow)
		}
		b, _ := enginetest.Item(before, "temporal", key)
		a, _ := enginetest.Item(after, "temporal", key)
		if a.Scores["boost"] != cfg.AssocBoost || a.Scores["final_score"] <= b.Scores["final_score"] {
			t.Errorf("%s: final_score %v → %v, boost %v", key, b.Scores["final_score"], a.Scores["final_score"], a.Scores["boost"])
		}
	}
	// m0218 was not recalled itself (no access): only the boost moves it.
	rb, ra := enginetest.RankOf(before, "temporal", "m0218"), enginetest.RankOf(after, "temporal", "m0218")
	if ra == 0 || ra >= rb {
		t.Errorf("m0218 (apples for mom) rank %d → %d for %q, want higher", rb, ra, probe.Text)
	}
	// Both boosted neighbours name 충주 themselves (retention 1 by
	// recognition), so the boost puts one of them first.
	if got := enginetest.SurvivorKeys(after); len(got) == 0 || (got[0] != "m0218" && got[0] != "m0308") {
		t.Errorf("survivors for %q after the boost = %v, want a boosted neighbour (m0218, m0308) first", probe.Text, got)
	}
	if lake, _ := e.MemoryByKey("m0162"); lake.Boost != 0 {
		t.Errorf("m0162 boosted to %v with cosine %.2f to the apples", lake.Boost, e.Similarity(apple.ID, lake.ID))
	}
	// Boosts fade on their own half-life.
	later := probe
	later.At = enginetest.DemoNow.Add(cfg.BoostHalfLife)
	if it, _ := enginetest.Item(enginetest.Recall(t, e, later), "temporal", "m0218"); it.Scores["boost"] != cfg.AssocBoost/2 {
		t.Errorf("m0218 boost one boost half-life later = %v, want %v", it.Scores["boost"], cfg.AssocBoost/2)
	}
}

func TestMovingAtForgetsEpisodesBeforeFacts(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	labels := enginetest.LoadDemo(t, e)
	checked := 0
	for name, pair := range labels.DecayPairs {
		ep, _ := e.MemoryByKey(pair[0])
		fact, _ := e.MemoryByKey(pair[1])
		if ep.Importance != fact.Importance {
			t.Fatalf("%s: importance %v vs %v", name, ep.Importance, fact.Importance)
		}
		// A related query that names the fact and only the opening of the
		// episode. It may still recognise the episode through its context
		// (cue_strength counts the neighbours' words, see DecayHelp), so the
		// test is on free recall: at +90d the episode has left it, the fact
		// has not.
		q := enginetest.ReadOnly(fact.Content + " " + strings.Join(strings.Fields(ep.Content)[:2], " "))
		now := enginetest.Recall(t, e, q)
		epNow, found := enginetest.Item(now, "temporal", pair[0])
		if !found || epNow.Dropped != "" || epNow.Recognised {
			continue // this episode is already out of free recall at +0d
		}
		checked++
		if f, _ := enginetest.Item(now, "temporal", pair[1]); f.Dropped != "" || f.Recognised {
			t.Errorf("%s: fact %s not in free recall at +0d: %q", name, pair[1], f.Dropped)
		}
		q.At = enginetest.DemoNow.Add(90 * day)
		later := enginetest.Recall(t, e, q)
		if it, _ := enginetest.Item(later, "temporal", pair[0]); it.DropKind != engine.DropForgotten && !it.Recognised {
			t.Errorf("%s: episode %s at +90d: %q, recognised %v; want out of free recall", name, pair[0], it.Dropped, it.Recognised)
		}
		if it, _ := enginetest.Item(later, "temporal", pair[1]); it.Dropped != "" || it.Recognised {
			t.Errorf("%s: fact %s at +90d: %q, recognised %v; want remembered", name, pair[1], it.Dropped, it.Recognised)
		}
		keys := enginetest.SurvivorKeys(later)
		fi, ei := slices.Index(keys, pair[1]), slices.Index(keys, pair[0])
		if fi < 0 || (ei >= 0 && ei < fi) {
			t.Errorf("%s at +90d: survivors %v; want the fact, and before the episode", name, keys)
		}
	}
	if checked < 2 {
		t.Errorf("only %d decay pairs still had their episode at +0d", checked)
	}
}

func TestForgetAtPredictsTheStepInRecall(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	// Loose cues: related questions that do not say most of the memory's
	// own words, so the step is the one of free recall.
	for key, cue := range map[string]string{ // an episode and a fact
		// cue_strength 0.213: the keyboard, and three other memories'
		// words (neither its own nor its neighbours')
		"m0414": "keyboard, blood type, cetirizine, peanuts",
		// cue_strength 0.225: the knee, and what it does not say
		"m0416": "my left knee, skiing last winter, the doctor and the allergy medication",
	} {
		m, _ := e.MemoryByKey(key)
		at := engine.ForgetAt(m, e.Config())
		q := enginetest.ReadOnly(cue)
		q.At = at.Add(-day)
		if tr := enginetest.Recall(t, e, q); !slices.Contains(enginetest.SurvivorKeys(tr), key) {
			it, _ := enginetest.Item(tr, "temporal", key)
			t.Errorf("%s a day before its forecast %s: not recalled (%s)", key, at.Format(time.DateOnly), it.Dropped)
		}
		q.At = at.Add(day)
		tr := enginetest.Recall(t, e, q)
		if it, ok := enginetest.Item(tr, "temporal", key); !ok || it.DropKind != engine.DropForgotten || it.Recognised || it.Scores["cue_strength"] >= engine.RecognitionCue {
			t.Errorf("%s a day after its forecast %s: %q (cue_strength %v), want forgotten", key, at.Format(time.DateOnly), it.Dropped, it.Scores["cue_strength"])
		}
		// Recognition: the memory's own words still find it after ForgetAt.
		own := enginetest.ReadOnly(m.Content)
		own.At = at.Add(day)
		tr = enginetest.Recall(t, e, own)
		it, _ := enginetest.Item(tr, "temporal", key)
		st := tr.Stage("temporal")
		want := fmt.Sprintf("id %d: recognised (forgotten in free recall on %s, unrecognisable after %s)", m.ID,
			at.Format(time.DateOnly), engine.UnrecognisableAt(m, e.Config()).Format(time.DateOnly))
		if it.Dropped != "" || !it.Recognised || it.Scores["cue_score"] != 1 || !slices.Contains(enginetest.SurvivorKeys(tr), key) ||
			!strings.Contains(st.Notes["recognised"], want) {
			t.Errorf("%s by its own text a day after %s: dropped %q, cue_score %v, survivors %v, notes %q",
				key, at.Format(time.DateOnly), it.Dropped, it.Scores["cue_score"], enginetest.SurvivorKeys(tr), st.Notes["recognised"])
		}
		// Cued by all of its own words: ranked by relevance alone, whatever
		// its age (decay_weight 0, retention 1).
		if w, r := it.Scores["decay_weight"], it.Scores["retention"]; w != 0 || r != 1 || r != engine.Retention(it.Scores["decay"], w) {
			t.Errorf("%s recognised by its own text with decay_weight %v, retention %v; want 0 and 1", key, w, r)
		}
	}
}

func TestTimeOverrideHidesMemoriesNotYetCreated(t *testing.T) {
	e, _ := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, e)
	q := enginetest.ReadOnly("충주 사과")
	q.At = time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC) // before the apples (03-28), after the trip (03-07)
	tr := enginetest.Recall(t, e, q)
	if it, _ := enginetest.Item(tr, "temporal", "m0216"); it.DropKind != engine.DropNotYetCreated {
		t.Errorf("m0216 on 2026-03-20: %q, want not yet created", it.Dropped)
	}
	if slices.Contains(enginetest.SurvivorKeys(tr), "m0216") {
		t.Error("a memory from the future reached the prompt")
	}
}
