package recall_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
)

// The turn after a question is its answer: "How often do you take the
// kids swimming?" is asked by one speaker and answered by the other in the
// next turn, which holds few of the query's words. The answer ranks at
// least AnswerShare of the question's relevance (answers_question: the
// question's id); a turn by the same speaker is no answer.
func TestAnswerFollowsItsQuestion(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	i := 0
	ids := map[string]int64{}
	mk := func(key, session, text string) {
		i++
		ids[key] = enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, Session: session,
			CreatedAt: now.Add(-2*day + time.Duration(i)*time.Second)}).ID
	}
	mk("q-en", "en", "Maria: Sounds fun! How often do you take the kids swimming at the lake?")
	mk("a-en", "en", "John: Three times a week, the kids never want to leave.")
	mk("q-ko", "ko", "민지: 애들 데리고 호수 수영 얼마나 자주 가?")
	mk("a-ko", "ko", "준호: 일주일에 세 번 가, 애들이 너무 좋아해.")
	mk("q-same", "same", "Maria: How often do you take the kids hiking on the ridge?")
	mk("a-same", "same", "Maria: Oh and the kids got new boots for it.")
	for n := range 30 {
		mk(fmt.Sprintf("f%d", n), fmt.Sprintf("filler%d", n), fmt.Sprintf("Maria: note %d, renew the parking permit and water the plants", n))
	}
	for _, c := range []struct{ query, q, a string }{
		{"how often does John take the kids swimming at the lake?", "q-en", "a-en"},
		{"준호는 애들 데리고 호수 수영 얼마나 자주 가?", "q-ko", "a-ko"},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, K: 10, ReadOnly: true})
		if it := rerankItem(t, tr, c.q); it.Scores["asks_only"] != 1 {
			t.Fatalf("%q: %s scores %v, want asks_only 1", c.query, c.q, it.Scores)
		}
		it := rerankItem(t, tr, c.a)
		if it.DropKind != "" || it.Scores["answers_question"] != float64(ids[c.q]) {
			t.Errorf("%q: %s (%s) scores %v, want answers_question %d", c.query, c.a, it.Dropped, it.Scores, ids[c.q])
		}
		if note := tr.Stage("rerank").Notes["asks_only"]; !strings.Contains(note, "answer one") {
			t.Errorf("%q: rerank note asks_only = %q", c.query, note)
		}
	}
	tr := enginetest.Recall(t, e, engine.Query{Text: "how often does Maria take the kids hiking on the ridge?", At: now, K: 10, ReadOnly: true})
	if it := rerankItem(t, tr, "a-same"); it.Scores["answers_question"] != 0 {
		t.Errorf("the same speaker's next turn is no answer: scores %v", it.Scores)
	}
}
