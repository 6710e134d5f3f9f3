package capture_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/engine/textnorm"
	"memtrace/internal/testdata/storetest"
)

// TestCaptureCacheMatchesStore: a capture batch puts the memories it wrote
// into the engine's cache without reading them back, and picks up what
// another writer changed meanwhile; afterwards the cache holds exactly what
// a fresh open reads from the database — every field, vector and seq — and
// the lexical index ranks every query alike. The batches store new
// memories, reinforce earlier ones (exact repeats within and across
// batches) and run while a second engine on the same file adds and updates
// memories in the sessions the captures write to.
func TestCaptureCacheMatchesStore(t *testing.T) {
	ctx := context.Background()
	open := enginesOnOneStore(t)
	live, other := open(), open()
	topics := []string{"the staging database runs on port 5433", "Mina prefers tea over coffee in the morning",
		"deploys go out on Thursdays after the review", "the cat is called Dubu and hates the vacuum",
		"회의는 매주 화요일 오전 열 시에 시작합니다", "서울 사무실의 와이파이 비밀번호는 매달 바뀝니다"}
	at := testNow.Add(-48 * time.Hour)
	var msgs []engine.Message
	for i := 0; i < 60; i++ {
		text := fmt.Sprintf("Remember that %s (note %d).", topics[i%len(topics)], i/3)
		msgs = append(msgs, engine.Message{ID: fmt.Sprintf("c%03d", i), Session: fmt.Sprintf("s%d", i/15), Role: "user",
			Text: text, At: at.Add(time.Duration(i) * time.Minute)})
	}
	reinforced := 0
	for b := 0; b < len(msgs); b += 10 {
		rs, err := capture.CaptureBatch(ctx, live, msgs[b:b+10])
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Outcome == engine.OutcomeReinforced {
				reinforced++
			}
		}
		// Another writer: a new memory in a session the captures use, and
		// a change to one the captures wrote.
		m := &engine.Memory{Key: fmt.Sprintf("other%d", b), Content: fmt.Sprintf("the other writer noted item %d", b),
			Session: fmt.Sprintf("s%d", b/15), CreatedAt: at.Add(time.Duration(b)*time.Minute + 30*time.Second)}
		if err := other.AddMemory(ctx, m, engine.Actor{Name: "other"}); err != nil {
			t.Fatal(err)
		}
		if err := other.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if first, ok := other.MemoryByKey(msgs[b].ID); ok {
			first.Importance = 0.9
			first.Tier = engine.TierHot
			if err := other.Update(ctx, func(q engine.Queries) error {
				return q.UpdateMemory(ctx, &first, engine.Actor{Name: "other"}, "update")
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if reinforced == 0 {
		t.Fatal("no capture reinforced a memory: the test does not exercise reinforcement")
	}
	// The last batch's other-writer changes are picked up by the next
	// batch; this one only reads and writes nothing new.
	if _, err := capture.CaptureBatch(ctx, live, msgs[:1]); err != nil {
		t.Fatal(err)
	}
	fresh := open()
	if live.Len() != fresh.Len() || fresh.Len() < 20 {
		t.Fatalf("cache holds %d memories, the database %d", live.Len(), fresh.Len())
	}
	fresh.EachMemory(func(want *engine.Memory) bool {
		got, ok := live.Memory(want.ID)
		if !ok {
			t.Errorf("memory %d (%s) missing from the cache", want.ID, want.Key)
			return true
		}
		if !reflect.DeepEqual(got, *want) {
			t.Errorf("memory %d: cache %+v\ndatabase %+v", want.ID, got, *want)
		}
		toks := textnorm.Tokens(want.Content)
		q := map[string]float64{toks[0]: 1, toks[len(toks)-1]: 0.5}
		if a, b := live.LexicalSearchDF(q, 20, map[string]int{}), fresh.LexicalSearchDF(q, 20, map[string]int{}); !reflect.DeepEqual(a, b) {
			t.Errorf("query %v: cache ranks %v, database %v", q, a, b)
		}
		return true
	})
	if a, b := live.HotIDs(), fresh.HotIDs(); !reflect.DeepEqual(a, b) || len(a) == 0 {
		t.Errorf("HOT ids: cache %v, database %v", a, b)
	}
}

// enginesOnOneStore returns a function that opens another engine on one
// store at testNow: each is a process of its own on one database.
func enginesOnOneStore(t *testing.T) func() *engine.Engine {
	t.Helper()
	db := storetest.MustOpenClock(t, func() time.Time { return testNow })
	return func() *engine.Engine {
		e, err := engine.Open(context.Background(), engine.Options{Store: db, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}
