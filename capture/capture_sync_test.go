package capture_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// The dedupe index catches up with only what the cache took since its
// last sync (engine.View.ChangedSince) and still decides as over every
// memory: a statement another writer stored after the index was built is
// found and reinforced, and so is one whose row the other writer changed
// since (its seq moved), in English and Korean, batch after batch.
func TestDedupeIndexCatchesUpWithOtherWriters(t *testing.T) {
	ctx := context.Background()
	open := enginesOnOneStore(t)
	live, other := open(), open()
	at := testNow.Add(-24 * time.Hour)
	seed := []engine.Message{{ID: "seed", Session: "s", Role: "user", Text: "Remember that the build server lives in the basement rack.", At: at}}
	if _, err := capture.CaptureBatch(ctx, live, seed); err != nil {
		t.Fatal(err)
	}
	texts := []string{"Remember that the staging database listens on port 5433.", "기억해 둬: 서울 사무실 회의는 매주 화요일 오전 열 시야."}
	for round, text := range texts {
		m := &engine.Memory{Key: fmt.Sprintf("other%d", round), Content: text, Session: "o", CreatedAt: at.Add(time.Duration(round+1) * time.Minute)}
		if err := other.AddMemory(ctx, m, engine.Actor{Name: "other"}); err != nil {
			t.Fatal(err)
		}
		if round == 1 { // the other writer changes its row after the insert: a new seq
			m.Importance = 0.9
			if err := other.Store().Update(ctx, func(q engine.Queries) error {
				return q.UpdateMemory(ctx, m, engine.Actor{Name: "other"}, "update")
			}); err != nil {
				t.Fatal(err)
			}
		}
		if err := live.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		msg := engine.Message{ID: fmt.Sprintf("again%d", round), Session: "s", Role: "user", Text: text, At: at.Add(time.Hour)}
		rs, err := capture.CaptureBatch(ctx, live, []engine.Message{msg})
		if err != nil {
			t.Fatal(err)
		}
		if r := rs[0]; r.Outcome != engine.OutcomeReinforced || r.MemoryID != m.ID {
			t.Fatalf("round %d: %s → %s memory %d (%s), want memory %d reinforced", round, text, r.Outcome, r.MemoryID, r.Reason, m.ID)
		}
	}
}
