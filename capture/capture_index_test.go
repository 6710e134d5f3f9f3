package capture_test

import (
	"context"
	"testing"
	"time"

	"memtrace/capture"
	"memtrace/engine"
)

// TestDedupeIndexKeptAcrossCapturers: the engine keeps the capture's dedupe
// index, so a second Capturer (a second ingest run in one process) uses it
// instead of rebuilding it over the store, and still decides as a fresh
// build would: after another process archives the memory a message
// repeats (applied to this engine's cache by a refresh, as a PostgreSQL
// notification is), the next Capturer rebuilds the index and stores the
// message anew instead of reinforcing the archived memory.
func TestDedupeIndexKeptAcrossCapturers(t *testing.T) {
	ctx := context.Background()
	open := enginesOnOneStore(t)
	live, other := open(), open()
	text := "Remember that the staging database runs on port 5433."
	msg := func(id string) engine.Message {
		return engine.Message{ID: id, Session: "s1", Role: "user", Text: text, At: testNow.Add(-time.Hour)}
	}
	captureOne := func(id string) (*engine.CaptureResult, any) {
		t.Helper()
		c, err := capture.NewCapturer(ctx, live)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := c.CaptureBatch(ctx, []engine.Message{msg(id)})
		if err != nil {
			t.Fatal(err)
		}
		return rs[0], capture.DedupeIndex(live)
	}
	first, ix1 := captureOne("m1")
	if first.Outcome != engine.OutcomeStored {
		t.Fatalf("first capture: %s (%s), want stored", first.Outcome, first.Reason)
	}
	second, ix2 := captureOne("m2")
	if second.Outcome != engine.OutcomeReinforced || second.MemoryID != first.MemoryID {
		t.Fatalf("second capture: %s of memory %d, want reinforced %d", second.Outcome, second.MemoryID, first.MemoryID)
	}
	if ix2 != ix1 {
		t.Fatal("the second Capturer rebuilt the dedupe index; want the engine's kept index")
	}

	// Another process archives the memory; this engine learns of it by a
	// refresh.
	err := other.Update(ctx, func(q engine.Queries) error {
		m, err := q.GetMemory(ctx, first.MemoryID)
		if err != nil {
			return err
		}
		m.Status = engine.StatusArchived
		return q.UpdateMemory(ctx, m, engine.Actor{Name: "curator"}, "archive")
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := live.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	third, ix3 := captureOne("m3")
	if third.Outcome != engine.OutcomeStored || third.MemoryID == first.MemoryID {
		t.Fatalf("after the archive: %s of memory %d, want a new memory stored", third.Outcome, third.MemoryID)
	}
	if ix3 == ix2 {
		t.Fatal("the index was kept although an indexed memory left the active set; want a rebuild")
	}
	// The same decisions as a fresh engine on the same file.
	fresh := open()
	c, err := capture.NewCapturer(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := c.CaptureBatch(ctx, []engine.Message{msg("m4")})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Outcome != engine.OutcomeReinforced || rs[0].MemoryID != third.MemoryID {
		t.Fatalf("fresh engine: %s of memory %d, want reinforced %d", rs[0].Outcome, rs[0].MemoryID, third.MemoryID)
	}
}
