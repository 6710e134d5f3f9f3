package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/recall"
)

// The acceptance command of the relevance gate: on the demo database, 200
// days on, "what medication do I take every morning" brings the cetirizine
// fact (m0075) and nothing whose only words in common with the query are
// "take" or "every" — "Hana is taking two weeks off…" (m0401) and "Marcus …
// reviews every memtrace PR" (m0156) leave at rerank as generic_only.
func TestRecallMedicationCarriesNothingMatchedOnlyByTakeOrEvery(t *testing.T) {
	db := demoDB(t)
	out, stderr, code := runRecallCLI(t, "--db", db, "recall", "what medication do I take every morning", "--at", "+200d", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var tr engine.Trace
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatalf("not a trace: %v", err)
	}
	var keys []string
	for _, s := range tr.Survivors {
		keys = append(keys, s.Key)
	}
	if !slices.Contains(keys, "m0075") {
		t.Fatalf("survivors %v lack the cetirizine fact m0075", keys)
	}
	rerank := tr.Stage("rerank")
	byKey := map[string]engine.TraceItem{}
	for _, it := range rerank.Items {
		byKey[it.Key] = it
	}
	for _, k := range keys {
		it := byKey[k]
		specific := 0
		for _, term := range it.Terms().MatchedTerms {
			if !textnorm.IsGeneric(term) {
				specific++
			}
		}
		if specific == 0 && it.Scores["cosine_score"] < recall.VectorOnlyCosine {
			t.Errorf("survivor %s %q shares only %v with the query (cosine_score %.3f)", k, it.Text, it.Terms().MatchedTerms, it.Scores["cosine_score"])
		}
		for _, term := range it.Terms().MatchedTerms {
			if term != "take" && term != "every" {
				specific = -1
			}
		}
		if specific != -1 {
			t.Errorf("survivor %s %q matches only %v", k, it.Text, it.Terms().MatchedTerms)
		}
	}
	for key, word := range map[string]string{"m0401": "take", "m0156": "every"} {
		it, ok := byKey[key]
		if !ok {
			t.Errorf("%s is not a candidate any more: the test no longer shows the gate", key)
			continue
		}
		if it.DropKind != engine.DropGenericOnly || !strings.Contains(it.Dropped, fmt.Sprintf("%q", word)) ||
			!slices.Equal(it.Terms().GenericTerms, []string{word}) {
			t.Errorf("%s: drop_kind %q (%q), generic_terms %v; want generic_only naming %q", key, it.DropKind, it.Dropped, it.Terms().GenericTerms, word)
		}
	}
}

// Vector candidates that share no word with the query are dropped as what
// they are (vector_only), not as "matched only through neighbouring
// memories": on the demo database "충주 사과" has such candidates, and every
// neighbour_only drop names the neighbours' terms and has none of its own.
func TestRecallDropReasonsNameWhatHappened(t *testing.T) {
	db := demoDB(t)
	out, stderr, code := runRecallCLI(t, "--db", db, "recall", "충주 사과", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var tr engine.Trace
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatal(err)
	}
	kinds := map[engine.DropKind]int{}
	for _, it := range tr.Stage("rerank").Items {
		kinds[it.DropKind]++
		bm25 := it.Scores["bm25_score"]
		switch it.DropKind {
		case engine.DropNeighbourOnly:
			if bm25 <= 0 || len(it.Terms().ContextTerms) == 0 || len(it.Terms().MatchedTerms) > 0 {
				t.Errorf("%s neighbour_only with bm25_score %.3f, context_terms %v, matched_terms %v", it.Key, bm25, it.Terms().ContextTerms, it.Terms().MatchedTerms)
			}
		case engine.DropVectorOnly:
			if bm25 != 0 || len(it.Terms().MatchedTerms)+len(it.Terms().ContextTerms) > 0 || it.Scores["cosine_score"] >= recall.VectorOnlyCosine {
				t.Errorf("%s vector_only with bm25_score %.3f, terms %v/%v, cosine_score %.3f", it.Key, bm25, it.Terms().MatchedTerms, it.Terms().ContextTerms, it.Scores["cosine_score"])
			}
			if !strings.Contains(it.Dropped, "vector similarity alone") {
				t.Errorf("%s: vector_only reason %q does not say it came by vector similarity alone", it.Key, it.Dropped)
			}
		}
	}
	if kinds[engine.DropVectorOnly] == 0 || kinds[engine.DropNeighbourOnly] == 0 {
		t.Errorf("rerank drops %v: want both vector-only and neighbour-only candidates for 충주 사과", kinds)
	}
}

// The gate's numbers are the same in `memtrace help relevance`, `help
// stages`, docs/inspector.md and README.md as in the engine.
func TestRelevanceGateDocumentedWithItsNumbers(t *testing.T) {
	rel, _, code := runRecallCLI(t, "help", "relevance")
	stages, _, code2 := runRecallCLI(t, "help", "stages")
	if code != 0 || code2 != 0 {
		t.Fatalf("help relevance exit %d, help stages exit %d", code, code2)
	}
	doc, err := os.ReadFile("docs/inspector.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	share := fmt.Sprintf("%.0f%%", recall.MinIDFShare*100)
	vec := fmt.Sprintf("%.2f", recall.VectorOnlyCosine)
	for name, text := range map[string]string{"help relevance": rel, "help stages": stages, "docs/inspector.md": string(doc), "README.md": string(readme)} {
		for _, want := range []string{share, vec} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not state %s", name, want)
			}
		}
	}
	for _, w := range []string{"take", "every", "하다", "있다", "되다", "모든", "다"} {
		if !strings.Contains(rel, " "+w+" ") && !strings.Contains(rel, " "+w+"\n") {
			t.Errorf("help relevance does not list the generic word %q", w)
		}
	}
}
