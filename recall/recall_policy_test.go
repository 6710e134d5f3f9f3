package recall_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/engine/tuning"
	"memtrace/internal/testdata/enginetest"
	"memtrace/internal/testdata/storetest"
)

// The rerank's weights are the engine's Config.Tuning (a policy's rerank
// keys): under an embedder of meaning w_lexical_semantic, under the hashed
// one w_lexical_hashed, in the formula note and in every item's
// relevance_score.
func TestRelevanceWeightsFollowThePolicy(t *testing.T) {
	cfg := engine.Config{Tuning: tuning.Tuning{WLexicalSemantic: 0.9, WLexicalLexical: 0.2}}
	for _, tc := range []struct {
		emb  engine.Embedder
		wLex float64
	}{{nil, 0.2}, {meaningEmbedder{engine.NewHashed(0)}, 0.9}} {
		clock := func() time.Time { return t0 }
		e, err := engine.Open(context.Background(), engine.Options{Store: storetest.MustOpenClock(t, clock), Now: clock, Embedder: tc.emb, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		enginetest.Add(t, e, engine.Memory{Key: "port", Content: "the staging database listens on port 5433", Importance: 0.6, CreatedAt: t0.Add(-day)})
		enginetest.Add(t, e, engine.Memory{Key: "backup", Content: "the staging backup runs nightly", Importance: 0.6, CreatedAt: t0.Add(-day)})
		tr := enginetest.Recall(t, e, engine.Query{Text: "staging database port", At: t0, ReadOnly: true})
		st := tr.Stage("rerank")
		want := fmt.Sprintf("relevance_score = %.1f × min(1, bm25_score / Σ weight·idf) + %.1f × cosine_score", tc.wLex, 1-tc.wLex)
		if st.Notes["formula"] != want {
			t.Errorf("%s: formula %q, want %q", e.Embedder().Name(), st.Notes["formula"], want)
		}
		for _, it := range st.Items {
			sum := tc.wLex*it.Scores["bm25_norm_score"] + (1-tc.wLex)*it.Scores["cosine_score"]
			if math.Abs(it.Scores["relevance_score"]-sum) > 2e-6 {
				t.Errorf("%s: %s relevance_score %v, want %v", e.Embedder().Name(), it.Key, it.Scores["relevance_score"], sum)
			}
		}
	}
}

// A memory of a period the query names ranks × (1 + TimeCueBoost), the
// policy's recall.time_cue_boost: its final_score over the product of the
// other factors is 1.5 by default and 3 under a boost of 2.
func TestTimeCueBoostFollowsThePolicy(t *testing.T) {
	for _, tc := range []struct {
		boost, want float64
	}{{0, 1 + tuning.TimeCueBoost}, {2, 3}} {
		e, _ := enginetest.OpenConfig(t, "", t0, engine.Config{Tuning: tuning.Tuning{TimeCueBoost: tc.boost}})
		march := time.Date(t0.Year(), 3, 28, 10, 0, 0, 0, time.UTC)
		enginetest.Add(t, e, engine.Memory{Key: "march", Content: "picked apples at the orchard with Mina", Importance: 0.6, Kind: engine.KindFact, CreatedAt: march})
		enginetest.Add(t, e, engine.Memory{Key: "may", Content: "picked apples at the orchard alone", Importance: 0.6, Kind: engine.KindFact, CreatedAt: march.AddDate(0, 1, 12)})
		tr := enginetest.Recall(t, e, engine.Query{Text: "apples at the orchard in March", At: t0, ReadOnly: true})
		it, ok := enginetest.Item(tr, "temporal", "march")
		if !ok || it.Scores["time_cue"] != 1 {
			t.Fatalf("boost %v: march item %+v, want time_cue 1", tc.boost, it.Scores)
		}
		s := it.Scores
		if got := s["final_score"] / (s["relevance_score"] * s["retention"] * (1 + s["boost"])); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("boost %v: time-cued lift %v, want %v", tc.boost, got, tc.want)
		}
	}
}
