package recall_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
)

// rerankOrder is the keys the rerank stage kept, in its order.
func rerankOrder(tr *engine.Trace) []string {
	var order []string
	for _, it := range tr.Stage("rerank").Items {
		if it.Dropped == "" {
			order = append(order, it.Key)
		}
	}
	return order
}

// A question about when is answered by the memory that says when: the
// line about the dentist that names no time ranks × UntimedShare below the
// one that says "last Tuesday" / "지난주", though it holds the query's
// words more densely; a question that does not ask when is not touched.
func TestWhenQuestionPrefersATimedMemory(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	i := 0
	mk := func(key, text string) {
		i++
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, Session: fmt.Sprintf("s%d", i),
			CreatedAt: now.Add(-3*day + time.Duration(i)*time.Second)})
	}
	mk("untimed-en", "the dentist filled my cracked molar")
	mk("timed-en", "I finally went to the dentist last Tuesday about the cracked molar, and it took an hour of drilling")
	mk("untimed-ko", "치과에서 금 간 어금니 때웠어")
	mk("timed-ko", "지난주에 드디어 치과 가서 금 간 어금니 치료받았는데 한참 걸렸어")
	for n := range 30 {
		mk(fmt.Sprintf("f%d", n), fmt.Sprintf("note %d: renew the parking permit and water the plants", n))
	}
	for _, c := range []struct{ query, untimed, timed string }{
		{"when did I go to the dentist about my cracked molar?", "untimed-en", "timed-en"},
		{"금 간 어금니 치과 언제 갔지?", "untimed-ko", "timed-ko"},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, K: 10, ReadOnly: true})
		order := rerankOrder(tr)
		a, b := slices.Index(order, c.untimed), slices.Index(order, c.timed)
		if b < 0 || (a >= 0 && a < b) {
			t.Errorf("%q: rerank order %v, want %s (it says when) before %s", c.query, order, c.timed, c.untimed)
		}
		if it := rerankItem(t, tr, c.untimed); it.Scores["names_no_time"] != 1 {
			t.Errorf("%q: %s scores %v, want names_no_time 1", c.query, c.untimed, it.Scores)
		}
		if it := rerankItem(t, tr, c.timed); it.Scores["names_no_time"] != 0 {
			t.Errorf("%q: %s names a time, scores %v", c.query, c.timed, it.Scores)
		}
		if note := tr.Stage("rerank").Notes["asks_when"]; !strings.Contains(note, fmt.Sprintf("× %.3f", recall.UntimedShare)) {
			t.Errorf("%q: rerank note asks_when = %q", c.query, note)
		}
	}
	tr := enginetest.Recall(t, e, engine.Query{Text: "what did the dentist do to my cracked molar?", At: now, K: 10, ReadOnly: true})
	if note := tr.Stage("rerank").Notes["asks_when"]; note != "" {
		t.Errorf("a question that does not ask when: note asks_when %q", note)
	}
	if it := rerankItem(t, tr, "untimed-en"); it.Scores["names_no_time"] != 0 {
		t.Errorf("a question that does not ask when: untimed-en scores %v", it.Scores)
	}
}
