package recall_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
)

// Two-hop expansion: the question names one thing (a relative's bakery, a
// friend's café) and the answer is in a memory that names only the person
// the first memory links it to. The seed's entity (a capitalised name in
// English, a Hangul word in Korean) brings the answer in, kept on the
// seed's evidence with two_hop_score = TwoHopWeight × the seed's relevance,
// and the candidates stage names the entity and its weight.
func TestTwoHopFromSeedEntities(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	mk := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, CreatedAt: now.Add(-3 * day)})
	}
	mk("seed-en", "my brother-in-law Taeho runs a small bakery near the station")
	mk("answer-en", "Taeho's salt bread is gone by noon every day")
	mk("seed-ko", "남편 친구 민재랑 통화했는데 을지로에서 작은 카페를 한대")
	mk("answer-ko", "민재한테 들었는데 요즘 원두를 직접 볶는대")
	for i := range 40 {
		mk(fmt.Sprintf("filler%d", i), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", i))
	}
	for _, c := range []struct{ query, seed, answer, entity string }{
		{"what is the best seller at my brother-in-law's bakery?", "seed-en", "answer-en", "taeho"},
		{"남편 친구 카페에서 뭐 팔아?", "seed-ko", "answer-ko", "민재"},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, ReadOnly: true})
		got := enginetest.SurvivorKeys(tr)
		if !slices.Contains(got, c.seed) || !slices.Contains(got, c.answer) {
			t.Errorf("%q: survivors %v, want %s and, through it, %s", c.query, got, c.seed, c.answer)
		}
		if note := tr.Stage("candidates").Notes["two_hop"]; !strings.Contains(note, c.entity) || !strings.Contains(note, "×0.300") {
			t.Errorf("%q: candidates note two_hop = %q, want %s at its weight", c.query, note, c.entity)
		}
		seed, ans := rerankItem(t, tr, c.seed), rerankItem(t, tr, c.answer)
		if want := recall.TwoHopWeight * seed.Scores["relevance_score"]; math.Abs(ans.Scores["two_hop_score"]-want) > 1e-3 || ans.DropKind != "" {
			t.Errorf("%q: %s two_hop_score %.3f (dropped %q), want %.3f", c.query, c.answer, ans.Scores["two_hop_score"], ans.Dropped, want)
		}
		if note := tr.Stage("rerank").Notes["two_hop_evidence"]; !strings.Contains(note, "kept by it") {
			t.Errorf("%q: rerank note two_hop_evidence = %q", c.query, note)
		}
	}
}
