package recall_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/engine/textnorm"
)

// TestBulkOpenMatchesIncrementalIndex: the index an Open rebuilds in bulk
// scores every query exactly as the index kept current write by write (the
// demo conversation, loaded through Update, with sessions and quarantined
// neighbours), so reopening a database never changes a ranking.
func TestBulkOpenMatchesIncrementalIndex(t *testing.T) {
	ctx := context.Background()
	live, db := enginetest.Open(t, "", enginetest.DemoNow)
	enginetest.LoadDemo(t, live)
	reopened, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return enginetest.DemoNow }})
	if err != nil {
		t.Fatal(err)
	}
	if reopened.Len() != live.Len() || live.Len() < 100 {
		t.Fatalf("reopened %d memories, live %d", reopened.Len(), live.Len())
	}
	checked := 0
	live.EachMemory(func(m *engine.Memory) bool {
		toks := textnorm.Tokens(m.Content)
		if len(toks) == 0 {
			return true
		}
		q := map[string]float64{toks[0]: 1, toks[len(toks)-1]: 0.5}
		a, b := live.LexicalSearchDF(q, 20, map[string]int{}), reopened.LexicalSearchDF(q, 20, map[string]int{})
		if len(a) != len(b) {
			t.Errorf("%s: %d hits live, %d reopened", m.Key, len(a), len(b))
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%s: hit %d live %+v, reopened %+v", m.Key, i, a[i], b[i])
				return false
			}
		}
		checked++
		return true
	})
	if checked < 100 {
		t.Errorf("checked %d queries", checked)
	}
	if got, want := reopened.HotIDs(), live.HotIDs(); len(got) != len(want) || len(want) == 0 {
		t.Errorf("HOT ids reopened %v, live %v", got, want)
	}
}

// A cached memory's vector is its row of the vector index — one copy of
// each vector — and stays so when adding memories grows the index.
func TestMemoryVectorIsTheIndexRow(t *testing.T) {
	ctx := context.Background()
	e, db := enginetest.Open(t, "", enginetest.DemoNow)
	for i := range 300 { // the index starts empty: it grows, and moves, many times
		m := &engine.Memory{Key: fmt.Sprintf("k%d", i), Content: fmt.Sprintf("memory number %d about 사과 %d", i, i*7), Kind: engine.KindFact, CreatedAt: enginetest.DemoNow}
		if err := e.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	reopened, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return enginetest.DemoNow }})
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range []*engine.Engine{e, reopened} {
		n := 0
		eng.EachMemory(func(m *engine.Memory) bool {
			row, ok := eng.VectorOf(m.ID)
			if !ok || len(m.Embedding) != len(row) || &m.Embedding[0] != &row[0] {
				t.Errorf("memory %d: its vector is not its index row", m.ID)
				return false
			}
			n++
			return true
		})
		if n != 300 {
			t.Fatalf("checked %d memories", n)
		}
	}
}

// The lexical index kept current write by write — words edited, memories
// quarantined and restored, moved between sessions and in time, several
// in one transaction — scores every query exactly as the index an open
// rebuilds from the store.
func TestIncrementalIndexUnderChurnMatchesRebuild(t *testing.T) {
	ctx := context.Background()
	live, db := enginetest.Open(t, "", enginetest.DemoNow)
	r := rand.New(rand.NewPCG(7, 11))
	vocab := []string{"apple", "pie", "dog", "shelter", "adopted", "Luna", "사과를", "충주", "work", "long", "trip", "busan", "coffee", "운동"}
	text := func() string {
		ws := make([]string, 2+r.IntN(6))
		for i := range ws {
			ws[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(ws, " ")
	}
	sessions := []string{"", "s1", "s2", "s3", "s4", "s5"}
	at := func() time.Time { return enginetest.DemoNow.Add(-time.Duration(r.IntN(500)) * time.Minute) }
	var ids []int64
	for i := range 120 {
		m := &engine.Memory{Key: fmt.Sprintf("c%d", i), Content: text(), Kind: engine.KindEpisode,
			Session: sessions[r.IntN(len(sessions))], CreatedAt: at()}
		if err := live.AddMemory(ctx, m, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	for step := range 200 {
		batch := 1 + r.IntN(3)*r.IntN(2) // mostly one change, sometimes a few in one transaction
		var ms []*engine.Memory
		for range batch {
			m, _ := live.Memory(ids[r.IntN(len(ids))])
			switch r.IntN(4) {
			case 0:
				m.Content, m.Embedding, m.Embedder = text(), nil, ""
				if err := live.PrepareMemory(ctx, &m); err != nil {
					t.Fatal(err)
				}
			case 1:
				if m.Status == engine.StatusQuarantined {
					m.Status = engine.StatusActive
				} else {
					m.Status, m.OrigType = engine.StatusQuarantined, m.Type
				}
			case 2:
				m.Session = sessions[r.IntN(len(sessions))]
			case 3:
				m.CreatedAt = at()
			}
			ms = append(ms, &m)
		}
		err := live.Update(ctx, func(q engine.Queries) error {
			for _, m := range ms {
				if err := q.UpdateMemory(ctx, m, engine.Actor{Name: "test"}, fmt.Sprintf("churn %d", step)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	reopened, err := engine.Open(ctx, engine.Options{Store: db, Now: func() time.Time { return enginetest.DemoNow }})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range vocab {
		q := map[string]float64{}
		for _, t := range textnorm.Tokens(w + " " + vocab[(i*5+2)%len(vocab)]) {
			q[t] = 1
		}
		a, b := live.LexicalSearchDF(q, 200, map[string]int{}), reopened.LexicalSearchDF(q, 200, map[string]int{})
		if len(a) == 0 || len(a) != len(b) {
			t.Fatalf("query %v: %d hits live, %d reopened", q, len(a), len(b))
		}
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("query %v: hit %d live %+v, reopened %+v", q, k, a[k], b[k])
			}
		}
	}
}
