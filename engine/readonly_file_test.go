package engine_test

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memtrace/internal/testdata/enginetest"

	"memtrace/engine"
	"memtrace/recall"
	"memtrace/store"
)

// fileSum is the SHA-256 of the database file and of its WAL when one is
// left beside it.
func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if wal, err := os.ReadFile(path + "-wal"); err == nil {
		raw = append(raw, wal...)
	}
	return sha256.Sum256(raw)
}

// TestReadOnlyRecallLeavesTheFileUnchanged is the inspector's promise
// across a whole session: open the store, open the engine, recall
// read-only, close — and the file is byte for byte what it was. (store.Open
// used to write PRAGMA user_version on every open, which changed the file
// however read-only the session.)
func TestReadOnlyRecallLeavesTheFileUnchanged(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memtrace.db")
	clock := func() time.Time { return enginetest.DemoNow }
	db, err := store.Open(ctx, path, clock)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.LoadDemo(t, e)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	session := func(commit bool) {
		t.Helper()
		db, err := store.Open(ctx, path, clock)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		}()
		e, err := engine.Open(ctx, engine.Options{Store: db, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := recall.Recall(ctx, e, engine.Query{Text: "충주 시에 충주 사과가 맛있었지?", ReadOnly: !commit})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Survivors) == 0 {
			t.Fatal("the recall found nothing: the check would prove little")
		}
	}
	before := fileSum(t, path)
	session(false)
	if after := fileSum(t, path); after != before {
		t.Fatal("open + read-only recall + close changed the database file")
	}
	// The check can fail: a committed recall changes the file.
	session(true)
	if after := fileSum(t, path); after == before {
		t.Fatal("a committed recall left the file unchanged: the checksum sees nothing")
	}
}
