package recall_test

import (
	"math"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/engine/tuning"
	"memtrace/internal/testdata/enginetest"
)

// The rerank's weights are the engine's Config.Tuning (a policy's rerank
// keys): under an embedder of meaning w_lexical_semantic, under the hashed
// one w_lexical_hashed, in the formula note and in every item's
// relevance_score.
func TestRelevanceWeightsFollowThePolicy(t *testing.T) {
	checkRelevanceWeights(t, engine.Config{Tuning: tuning.Tuning{WLexicalSemantic: 0.9, WLexicalLexical: 0.2}}, 0.2, 0.9)
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
