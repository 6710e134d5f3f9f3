package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
)

// Unknown query terms count at the maximum idf in the relevance gate: when
// the query's topic words are in no memory, a word most memories hold
// cannot carry a match on its own (low_idf_share, and the rerank stage
// names the unknown terms); the same word is evidence enough when the query
// asks nothing the index does not know; a rare word (a name one memory
// holds) still carries it. In both languages.
func TestUnknownTermsAtMaxIDF(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	mk := func(key, text string) {
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, CreatedAt: now.Add(-2 * day)})
	}
	places := []string{"near the fence", "by the shed", "under the apple tree", "next to the pond", "along the path", "behind the house"}
	// a common word: a fifth of the store holds it
	for i := range 60 {
		mk(fmt.Sprintf("garden%d", i), fmt.Sprintf("the tomatoes in the garden %s need water, row %d", places[i%len(places)], i))
	}
	for i, p := range []string{"월요일마다", "매일 아침", "주말에도", "점심 먹고", "퇴근 전에", "출근하자마자"} {
		for j := range 10 {
			mk(fmt.Sprintf("hoesa%d", i*10+j), fmt.Sprintf("회사 메일은 %s 확인하는 편이야 %d", p, j))
		}
	}
	mk("sora", "Sora is the one who lent me the tent for the garden party")
	mk("other1", "the dentist appointment moved to Thursday afternoon")
	mk("other2", "my sister bought a used bicycle for the commute")
	for i := range 180 {
		mk(fmt.Sprintf("errand%d", i), fmt.Sprintf("errand list item %d: return the library books before the due date", i))
	}

	tr := enginetest.Recall(t, e, engine.Query{Text: "which bonsai species thrives in my garden", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, "garden") }) {
		t.Errorf("survivors %v: a memory holding only the common word garden is not about bonsai species", got)
	}
	if it := rerankItem(t, tr, "garden0"); it.DropKind != engine.DropLowIDFShare {
		t.Errorf("garden0: drop_kind %q (%s), want low_idf_share", it.DropKind, it.Dropped)
	}
	if note := tr.Stage("rerank").Notes["unknown_terms"]; !strings.Contains(note, "bonsai") {
		t.Errorf("rerank note unknown_terms = %q, want bonsai named", note)
	}

	tr = enginetest.Recall(t, e, engine.Query{Text: "what needs water in my garden", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, "garden") }) {
		t.Errorf("survivors %v: without unknown words, garden is the query's own topic", got)
	}
	if note := tr.Stage("rerank").Notes["unknown_terms"]; note != "" {
		t.Errorf("unknown_terms = %q for a query whose words the index holds", note)
	}

	tr = enginetest.Recall(t, e, engine.Query{Text: "did Sora mention any orchestra rehearsals", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); !slices.Contains(got, "sora") {
		t.Errorf("survivors %v: a rare name carries the match however many query words are unknown", got)
	}

	tr = enginetest.Recall(t, e, engine.Query{Text: "회사 필라테스 강사 자격증 이름이 뭐였지", At: now, ReadOnly: true})
	if got := enginetest.SurvivorKeys(tr); slices.ContainsFunc(got, func(k string) bool { return strings.HasPrefix(k, "hoesa") }) {
		t.Errorf("survivors %v: a memory holding only the common word 회사 is not about a pilates instructor", got)
	}
	if note := tr.Stage("rerank").Notes["unknown_terms"]; !strings.Contains(note, "필라테스") {
		t.Errorf("rerank note unknown_terms = %q, want 필라테스 named", note)
	}
}
