package cli

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/golden"
	"memtrace/internal/testdata/storetest"
)

// Four engines opened through the CLI's open path (each with its own
// listener) capture into one PostgreSQL space at once: messages of their
// own, some the same text as another writer's, and one statement all four
// capture. Nothing is lost or doubled: every message has exactly one
// capture row, every memory a capture stored exists once under its
// message's key, the shared statement is one active memory reinforced
// three times, and the store holds no other memory. And every engine
// stays current without a Refresh: its caches come to hold exactly the
// store's memories, at their seqs — its own writes (whose notifications
// it does not check against the store, store.DB.OwnWrite) and the others'
// (each notified after its COMMIT).
func TestFourWritersCaptureIntoOnePostgresSpace(t *testing.T) {
	dsn := storetest.PGDSN(t)
	ctx := context.Background()
	const writers, each = 4, 30
	engs := make([]*engine.Engine, writers)
	for w := range engs {
		eng, _, closeDB, err := openEngineAt(ctx, dsn, false, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(closeDB)
		engs[w] = eng
	}
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	// Writers 0 and 1 draw the same texts (one seed), 2 and 3 their own.
	texts := make([][]string, writers)
	for w, seed := range []uint64{100, 100, 101, 102} {
		for _, m := range golden.SyntheticMemories(each, seed, base) {
			texts[w] = append(texts[w], m.Content)
		}
	}
	texts[2][each/2] = "우리 팀은 금요일마다 블루그린 스크립트로 정원 앱을 배포해요."
	var wg sync.WaitGroup
	results := make([][]*engine.CaptureResult, writers)
	errs := make(chan error, writers)
	for w := range engs {
		wg.Go(func() {
			for i, text := range texts[w] {
				msg := engine.Message{ID: fmt.Sprintf("w%d-%d", w, i), Session: fmt.Sprintf("s%d", w), Role: "user", Text: text, At: base.Add(time.Duration(i) * time.Minute)}
				if i == each/3 {
					msg.ID, msg.Text = fmt.Sprintf("shared-%d", w), concurrentStatement
				}
				r, err := capture.Capture(ctx, engs[w], msg)
				if err != nil {
					errs <- fmt.Errorf("writer %d, message %s: %w", w, msg.ID, err)
					return
				}
				results[w] = append(results[w], r)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	db := storetest.MustOpenPath(t, dsn, nil)
	ms, top, err := db.MemoriesChangedSince(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]*engine.Memory{}
	keys := map[string]int{}
	for _, m := range ms {
		byID[m.ID] = m
		keys[m.Key]++
	}
	var ids []string
	stored, shared := 0, map[int64]int{}
	for w, rs := range results {
		for i, r := range rs {
			id := fmt.Sprintf("w%d-%d", w, i)
			if i == each/3 {
				id = fmt.Sprintf("shared-%d", w)
			}
			ids = append(ids, id)
			switch r.Outcome {
			case engine.OutcomeStored:
				stored++
				if m := byID[r.MemoryID]; m == nil || m.Key != id || keys[id] != 1 {
					t.Fatalf("%s was stored as memory %d, which the store holds as %+v (%d memories of that key)", id, r.MemoryID, m, keys[id])
				}
			case engine.OutcomeReinforced:
				if byID[r.MemoryID] == nil {
					t.Fatalf("%s reinforced memory %d, which the store does not hold", id, r.MemoryID)
				}
			}
			if i == each/3 {
				shared[r.MemoryID]++
			}
		}
	}
	if len(ms) != stored {
		t.Fatalf("the store holds %d memories; the captures stored %d", len(ms), stored)
	}
	for id, n := range shared {
		if n != writers || byID[id].AccessCount != writers-1 || byID[id].Status != engine.StatusActive {
			t.Fatalf("the shared statement: %v (memory %d: %+v), want one memory reinforced %d times", shared, id, byID[id], writers-1)
		}
	}
	recs, n, err := db.FindCaptures(ctx, engine.CaptureFilter{Limit: 10 * writers * each})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, c := range recs {
		seen[c.MessageID]++
	}
	for _, id := range ids {
		if seen[id] != 1 {
			t.Fatalf("message %s has %d capture rows, want 1", id, seen[id])
		}
	}
	if n != len(ids) {
		t.Fatalf("%d capture rows for %d messages", n, len(ids))
	}
	for w, eng := range engs {
		current := func() bool {
			if eng.Seq() != top {
				return false
			}
			for _, m := range ms {
				c, ok := eng.Memory(m.ID)
				if !ok || c.Seq != m.Seq || c.Hash != m.Hash || c.AccessCount != m.AccessCount {
					return false
				}
			}
			v := eng.View()
			defer v.Close()
			return len(v.IDs()) == len(ms)
		}
		if seenWithin(5*time.Second, current) < 0 {
			why := ""
			for _, m := range ms {
				if c, ok := eng.Memory(m.ID); !ok || c.Seq != m.Seq || c.Hash != m.Hash || c.AccessCount != m.AccessCount {
					why = fmt.Sprintf("memory %d: cached %v (seq %d, access %d), stored seq %d, access %d", m.ID, ok, c.Seq, c.AccessCount, m.Seq, m.AccessCount)
					break
				}
			}
			v := eng.View()
			n := len(v.IDs())
			v.Close()
			t.Fatalf("engine %d holds seq %d after 5 s, the store %d (%d memories, %d in its view): %s", w, eng.Seq(), top, len(ms), n, why)
		}
	}
	t.Logf("%d writers, %d messages each: %d memories stored, every engine current", writers, each, stored)
}
