package recall_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/engine/index"
	"memtrace/internal/testdata/storetest"
	"memtrace/recall"
)

// meaningEmbedder stands for an embedder of meaning (ollama:MODEL): the
// hashed vectors under another name, without MeasuresWords.
type meaningEmbedder struct{ h *index.Hashed }

func (m meaningEmbedder) Name() string { return "meaning-test/256" }
func (m meaningEmbedder) Dim() int     { return m.h.Dim() }
func (m meaningEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return m.h.Embed(ctx, texts)
}

// The rerank weighs BM25 0.7 under the hashed embedder, whose vectors
// measure shared words, and 0.5 under any other; every rerank item's
// relevance_score is that sum, and the stage's formula note says which.
func TestRelevanceWeightsFollowTheEmbedder(t *testing.T) {
	if l, v := recall.RelevanceWeights(engine.NewHashed(0), engine.DefaultConfig()); recall.WLexicalLexical != 0.7 || l != 0.7 || v != 1-l {
		t.Errorf("hashed: weights %v, %v; want 0.7, 0.3", l, v)
	}
	if l, v := recall.RelevanceWeights(meaningEmbedder{engine.NewHashed(0)}, engine.DefaultConfig()); l != 0.5 || v != 0.5 {
		t.Errorf("an embedder of meaning: weights %v, %v; want 0.5, 0.5", l, v)
	}
	checkRelevanceWeights(t, engine.Config{}, 0.7, 0.5)
}

// checkRelevanceWeights recalls under cfg with the hashed embedder and an
// embedder of meaning and checks that the rerank's formula note and every
// item's relevance_score weigh BM25 by wHashed and wMeaning respectively.
func checkRelevanceWeights(t *testing.T, cfg engine.Config, wHashed, wMeaning float64) {
	t.Helper()
	for _, tc := range []struct {
		emb  engine.Embedder
		wLex float64
	}{{nil, wHashed}, {meaningEmbedder{engine.NewHashed(0)}, wMeaning}} {
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
			got := it.Scores["relevance_score"]
			sum := tc.wLex*it.Scores["bm25_norm_score"] + (1-tc.wLex)*it.Scores["cosine_score"]
			if math.Abs(got-sum) > 2e-6 {
				t.Errorf("%s: %s relevance_score %v, want %v", e.Embedder().Name(), it.Key, got, sum)
			}
		}
	}
}

// Each retriever supplies at least 2·k candidates: with a configured pool
// of 2 and k = 10, the lexical side brings 20 of the 30 matching memories.
func TestCandidatePoolIsAtLeastTwoK(t *testing.T) {
	e, _ := enginetest.OpenConfig(t, "", t0, engine.Config{CandidatePool: 2})
	for i := range 30 {
		enginetest.Add(t, e, engine.Memory{Key: fmt.Sprintf("n%d", i), Content: fmt.Sprintf("garden watering note %d", i),
			Importance: 0.6, CreatedAt: t0.Add(-time.Duration(i+1) * time.Hour)})
	}
	for _, tc := range []struct{ k, pool int }{{10, 20}, {1, 2}} {
		tr := enginetest.Recall(t, e, engine.Query{Text: "garden watering note", At: t0, K: tc.k, ReadOnly: true})
		st := tr.Stage("candidates")
		if st.Notes["pool_per_retriever"] != strconv.Itoa(tc.pool) || st.Notes["lexical_hits"] != strconv.Itoa(tc.pool) {
			t.Errorf("k=%d: pool %s, lexical hits %s; want %d each", tc.k, st.Notes["pool_per_retriever"], st.Notes["lexical_hits"], tc.pool)
		}
	}
}

// A generic Korean query word inside a longer word ("하기" in "참여하기로")
// is not a word of the memory's own text: the beta-test memory next to the
// push-notification decision has only its neighbours' words, and leaves as
// neighbour_only instead of riding in on context evidence.
func TestGenericHangulInsideAWordIsNoOwnWord(t *testing.T) {
	e, _ := enginetest.Open(t, "", t0)
	at := t0.Add(-30 * day)
	for i, text := range []string{
		"푸시 알림은 FCM으로 가기로 했어. 자체 서버는 운영 부담이 너무 커.",
		"FCM으로 결정하셨군요. 패키지로 연결하겠습니다.",
		"베타 테스트는 4월 30일에 시작해. 커뮤니티 가든 회원 20명이 참여하기로 했어.",
	} {
		enginetest.Add(t, e, engine.Memory{Key: fmt.Sprintf("s%d", i), Content: text, Session: "s08", Importance: 0.6, Kind: engine.KindFact,
			CreatedAt: at.Add(time.Duration(i) * time.Minute)})
	}
	enginetest.Add(t, e, engine.Memory{Key: "gym", Content: "내일부터 운동 하기로 했어", Session: "gym", Importance: 0.6, CreatedAt: at}) // the index knows 하기
	for i := range 6 {
		enginetest.Add(t, e, engine.Memory{Key: fmt.Sprintf("other%d", i), Content: fmt.Sprintf("오늘 점심은 김밥 %d줄 먹었어", i+1),
			Session: fmt.Sprintf("o%d", i), Importance: 0.6, CreatedAt: at})
	}
	tr := enginetest.Recall(t, e, engine.Query{Text: "푸시 알림은 뭘로 하기로 했지?", At: t0, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, "s0") || slices.Contains(got, "s2") {
		t.Errorf("survivors %v: want s0 and not s2", got)
	}
	it := rerankItem(t, tr, "s2")
	if it.DropKind != engine.DropNeighbourOnly || slices.Contains(it.Terms().MatchedTerms, "하기") || !slices.Contains(it.Terms().ContextTerms, "알림") {
		t.Errorf("s2: drop_kind %q (%s), matched %v, context %v; want neighbour_only, no own 하기, 알림 in context",
			it.DropKind, it.Dropped, it.Terms().MatchedTerms, it.Terms().ContextTerms)
	}
}
