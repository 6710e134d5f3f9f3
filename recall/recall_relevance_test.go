package recall_test

import (
	"fmt"
	"slices"
	"testing"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
)

// rerankItem is the rerank stage's item for key.
func rerankItem(t *testing.T, tr *engine.Trace, key string) engine.TraceItem {
	t.Helper()
	for _, it := range tr.Stage("rerank").Items {
		if it.Key == key {
			return it
		}
	}
	t.Fatalf("%q: %s is no rerank candidate", tr.Query, key)
	return engine.TraceItem{}
}

// The relevance gate, in both languages: a memory that shares a specific
// word with the query stays; one that shares only generic words (take,
// every; 요즘, 모든) leaves as generic_only; one that shares only a word most
// memories hold leaves as low_idf_share; one found by vector similarity
// alone leaves as vector_only. Each reason says what the memory had.
func TestRelevanceGate(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	mk := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, CreatedAt: now.Add(-2 * day)})
	}
	mk("vitamin", "I take vitamin D every morning with breakfast")
	mk("train", "We take the train to Busan every Friday")
	mk("review", "Marcus reviews every pull request before noon")
	mk("supplement-ko", "영양제는 오메가3를 저녁에 먹어")
	mk("busy-ko", "요즘 회사 일이 너무 바빠서 모든 약속을 미뤘어")
	for i := range 8 {
		mk(fmt.Sprintf("mina%d", i), fmt.Sprintf("Mina mentioned topic number %d during the long weekly sync meeting with everyone", i))
	}
	mk("passport", "the passport renewal office opens at eight")
	mk("unrelated", "the cat sleeps on the warm laptop keyboard")

	tr := enginetest.Recall(t, e, engine.Query{Text: "what vitamin do I take every morning", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, "vitamin") || slices.Contains(got, "train") || slices.Contains(got, "review") {
		t.Errorf("survivors %v: want vitamin, and neither train (take) nor review (every)", got)
	}
	for key, words := range map[string][]string{"train": {"every", "take"}, "review": {"every"}} {
		it := rerankItem(t, tr, key)
		if it.DropKind != engine.DropGenericOnly || !slices.Equal(it.Terms().GenericTerms, words) || !slices.Equal(it.Terms().MatchedTerms, words) {
			t.Errorf("%s: drop_kind %q (%s), matched %v, generic %v; want generic_only on %v", key, it.DropKind, it.Dropped, it.Terms().MatchedTerms, it.Terms().GenericTerms, words)
		}
	}
	if it := rerankItem(t, tr, "vitamin"); it.DropKind != "" || it.Scores["idf_share_score"] < recall.MinIDFShare || !slices.Contains(it.Terms().MatchedTerms, "vitamin") {
		t.Errorf("vitamin: %q, idf_share_score %.3f, matched %v", it.Dropped, it.Scores["idf_share_score"], it.Terms().MatchedTerms)
	}

	tr = enginetest.Recall(t, e, engine.Query{Text: "요즘 저녁에 먹는 영양제 모든 거 알려줘", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, "supplement-ko") || slices.Contains(got, "busy-ko") {
		t.Errorf("survivors %v: want supplement-ko and not busy-ko (요즘, 모든)", got)
	}
	if it := rerankItem(t, tr, "busy-ko"); it.DropKind != engine.DropGenericOnly {
		t.Errorf("busy-ko: drop_kind %q (%s), generic %v; want generic_only", it.DropKind, it.Dropped, it.Terms().GenericTerms)
	}

	tr = enginetest.Recall(t, e, engine.Query{Text: "when does Mina's passport renewal office open", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, "passport") {
		t.Errorf("survivors %v lack passport", got)
	}
	lowShare := 0
	for i := range 8 {
		it := rerankItem(t, tr, fmt.Sprintf("mina%d", i))
		if it.DropKind == engine.DropLowIDFShare {
			lowShare++
			if it.Scores["idf_share_score"] >= recall.MinIDFShare || !slices.Equal(it.Terms().MatchedTerms, []string{"mina"}) {
				t.Errorf("%s low_idf_share with idf_share_score %.3f, matched %v", it.Key, it.Scores["idf_share_score"], it.Terms().MatchedTerms)
			}
		} else if it.DropKind == "" {
			t.Errorf("%s survived rerank on the name alone: %v, scores %v", it.Key, it.Terms().MatchedTerms, it.Scores)
		}
	}
	if lowShare == 0 {
		t.Error("no Mina memory left as low_idf_share")
	}

	vectorOnly := 0
	for _, it := range tr.Stage("rerank").Items {
		if it.DropKind != engine.DropVectorOnly {
			continue
		}
		vectorOnly++
		if it.Scores["bm25_score"] != 0 || len(it.Terms().MatchedTerms)+len(it.Terms().ContextTerms) > 0 || it.Scores["cosine_score"] >= recall.VectorOnlyCosine {
			t.Errorf("%s vector_only with %v", it.Key, it.Scores)
		}
	}
	if vectorOnly == 0 {
		t.Errorf("no vector_only drop among %d rerank items", len(tr.Stage("rerank").Items))
	}
}
