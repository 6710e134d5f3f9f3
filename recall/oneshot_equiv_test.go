package recall_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
	"memtrace/recall"
)

var tookField = regexp.MustCompile(`"took_ms":[0-9.e+-]+`)

// A one-shot engine (Options.OneShot: the vector postings never posted at
// open, every search a pass over the rows) recalls exactly what a warm
// engine recalls — every stage, score and drop of the trace — over the
// database as it is and after writes through the one-shot engine itself (a
// new row appended to the unposted index, a rewritten one that posts it).
func TestOneShotEngineRecallsAsWarm(t *testing.T) {
	ctx := context.Background()
	warm, db := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, warm)
	now := func() time.Time { return enginetest.DemoNow }
	queries := []string{"충주 사과", "what did I eat for lunch", "노트북 얘기 뭐였지?", "my sister's birthday", "프로젝트 진행 상황 알려줘", "database port", "요즘 운동 뭐 해?", "coffee"}
	same := func(when string, a, b *engine.Engine) {
		t.Helper()
		survivors := 0
		for _, q := range queries {
			ta, err := recall.Recall(ctx, a, engine.Query{Text: q, At: enginetest.DemoNow, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			tb, err := recall.Recall(ctx, b, engine.Query{Text: q, At: enginetest.DemoNow, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			ja, _ := json.Marshal(ta)
			jb, _ := json.Marshal(tb)
			if tookField.ReplaceAllString(string(ja), "") != tookField.ReplaceAllString(string(jb), "") {
				t.Errorf("%s: %q: the one-shot engine's trace differs from the warm one's", when, q)
			}
			survivors += len(tb.Survivors)
		}
		if survivors < len(queries) {
			t.Fatalf("%s: %d survivors over %d queries: the comparison compares little", when, survivors, len(queries))
		}
	}
	one, err := engine.Open(ctx, engine.Options{Store: db, Now: now, OneShot: true})
	if err != nil {
		t.Fatal(err)
	}
	same("as opened", one, warm)

	added := enginetest.Add(t, one, engine.Memory{Key: "late", Content: "충주 사과 한 박스를 또 샀어, coffee beans too", Importance: 0.7, CreatedAt: enginetest.DemoNow.Add(-time.Hour)})
	m, ok := one.Memory(added.ID - 1)
	if !ok {
		t.Fatalf("no memory %d", added.ID-1)
	}
	m.Content, m.Embedding, m.Embedder = "we talked about the new laptop over lunch, 노트북 얘기", nil, ""
	if err := one.PrepareMemory(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if err := one.Update(ctx, func(q engine.Queries) error { return q.UpdateMemory(ctx, &m, engine.Actor{Name: "test"}, "rewrite") }); err != nil {
		t.Fatal(err)
	}
	reopened, err := engine.Open(ctx, engine.Options{Store: db, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	same("after writes", one, reopened)
}
