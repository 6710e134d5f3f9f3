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

// A memory that only asks: "did you keep the receipt for the blender?"
// shares the query's words with the memory that answers it and, being
// short, outscores it; it tells nothing, so it ranks × AsksOnlyShare. A
// memory that states the words as well as asking ("I kept the receipt.
// Did you?") is not one; nor is a speaker's name the only thing asked.
func TestAsksOnlyRanksBelowTheAnswer(t *testing.T) {
	now := t0
	e, _ := enginetest.Open(t, "", now)
	i := 0
	mk := func(key, text string) {
		i++
		enginetest.Add(t, e, engine.Memory{Key: key, Content: text, Importance: 0.6, Session: "s1",
			CreatedAt: now.Add(-2*day + time.Duration(i)*time.Second)})
	}
	mk("ask-en", "did you keep the blender receipt?")
	mk("tell-en", "the blender receipt is in the blue folder in the kitchen drawer, with the warranty card and the manual")
	mk("ask-ko", "믹서기 영수증 챙겼어?")
	mk("tell-ko", "믹서기 영수증은 부엌 서랍 파란 파일에 보증서랑 설명서랑 같이 넣어 뒀어")
	mk("both", "I kept the kettle receipt. Did you keep yours?")
	for n := range 30 {
		mk(fmt.Sprintf("f%d", n), fmt.Sprintf("reminder %d: renew the parking permit and water the plants", n))
	}
	for _, c := range []struct{ query, ask, tell string }{
		{"where is the blender receipt?", "ask-en", "tell-en"},
		{"믹서기 영수증 어디 있어?", "ask-ko", "tell-ko"},
	} {
		tr := enginetest.Recall(t, e, engine.Query{Text: c.query, At: now, K: 10, ReadOnly: true})
		rr := tr.Stage("rerank")
		var order []string
		for _, it := range rr.Items {
			if it.Dropped == "" {
				order = append(order, it.Key)
			}
		}
		a, b := slices.Index(order, c.ask), slices.Index(order, c.tell)
		if b < 0 || (a >= 0 && a < b) {
			t.Errorf("%q: rerank order %v, want %s (it states) before %s (it asks)", c.query, order, c.tell, c.ask)
		}
		if it := rerankItem(t, tr, c.ask); it.Scores["asks_only"] != 1 {
			t.Errorf("%q: %s scores %v, want asks_only 1", c.query, c.ask, it.Scores)
		}
		if note := rr.Notes["asks_only"]; !strings.Contains(note, fmt.Sprintf("× %.3f", recall.AsksOnlyShare)) {
			t.Errorf("%q: rerank note asks_only = %q", c.query, note)
		}
	}
	tr := enginetest.Recall(t, e, engine.Query{Text: "did I keep the kettle receipt?", At: now, K: 10, ReadOnly: true})
	if it := rerankItem(t, tr, "both"); it.DropKind != "" || it.Scores["asks_only"] != 0 {
		t.Errorf("a memory that states its terms too: %v (%s), want kept without asks_only", it.Scores, it.Dropped)
	}
}
