package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"memtrace/engine"
)

func TestReviewQueue(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

	t.Run("SaveUpdatesByMessage", func(t *testing.T) {
		db := openTestDB(t, filepath.Join(t.TempDir(), "m.db"))
		it := &engine.ReviewItem{MessageID: "m1", Session: "s", Role: "user", Text: "참외를 좋아해요", At: at, Reason: "bad type", Judge: "judge:x", Attempts: 1}
		if err := db.SaveReview(ctx, it); err != nil {
			t.Fatal(err)
		}
		first := it.ID
		it.Attempts, it.Reason = 2, "still bad"
		if err := db.SaveReview(ctx, &engine.ReviewItem{MessageID: "m1", Text: it.Text, At: at, Reason: "still bad", Attempts: 2, Status: engine.ReviewSkipped, Batch: "b1"}); err != nil {
			t.Fatal(err)
		}
		got, err := db.GetReviewByMessage(ctx, "m1")
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != first || got.Attempts != 2 || got.Reason != "still bad" || got.Status != engine.ReviewSkipped || !got.At.Equal(at) {
			t.Fatalf("after update: %+v", got)
		}
		items, n, err := db.FindReviews(ctx, engine.ReviewFilter{Batch: "b1"})
		if err != nil || n != 1 || items[0].ID != first {
			t.Fatalf("by batch: %+v %d %v", items, n, err)
		}
		if _, n, _ := db.FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld}); n != 0 {
			t.Fatalf("held = %d, want 0", n)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		db := openTestDB(t, filepath.Join(t.TempDir(), "m.db"))
		if _, err := db.GetReviewByMessage(ctx, "nope"); engine.ErrorCode(err) != engine.ENOTFOUND {
			t.Fatalf("err = %v", err)
		}
	})
	// A database from before the queue logged held captures as dropped by
	// the judge; the migration queues them so they are not lost.
	t.Run("MigrationQueuesOldHeldCaptures", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		all := migrations()
		var before []migration
		for _, m := range all {
			if m.Version < 4 {
				before = append(before, m)
			}
		}
		raw, err := sql.Open("sqlite3", dsn(path, true))
		if err != nil {
			t.Fatal(err)
		}
		if err := migrate(ctx, raw, before); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO captures (message_id, text, at, outcome, dropped_by, reason, created_at) VALUES ('held-1', 'I moved to Busan last spring.', '2026-03-01T09:00:00.000000000Z', 'dropped', 'judge', 'needs_review', '2026-03-01T09:00:00.000000000Z')`,
			`INSERT INTO captures (message_id, text, at, outcome, dropped_by, reason, created_at) VALUES ('skip-1', 'lunch', '2026-03-01T09:00:00.000000000Z', 'dropped', 'judge', 'not a memory', '2026-03-01T09:00:00.000000000Z')`,
		} {
			if _, err := raw.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		raw.Close()
		db := openTestDB(t, path)
		items, n, err := db.FindReviews(ctx, engine.ReviewFilter{Status: engine.ReviewHeld})
		if err != nil || n != 1 || items[0].MessageID != "held-1" || items[0].Text != "I moved to Busan last spring." {
			t.Fatalf("queued %+v (%d), %v", items, n, err)
		}
	})
}

func openTestDB(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
