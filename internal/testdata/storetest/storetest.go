// Package storetest opens real SQLite databases for other packages' tests.
package storetest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"memtrace/store"
)

// MustOpen opens a fresh database file in tb.TempDir() with the real clock
// and closes it when the test ends.
func MustOpen(tb testing.TB) *store.DB {
	tb.Helper()
	return MustOpenClock(tb, time.Now)
}

// MustOpenClock is MustOpen with an injected clock (audit and creation times).
func MustOpenClock(tb testing.TB, now func() time.Time) *store.DB {
	tb.Helper()
	return MustOpenPath(tb, filepath.Join(tb.TempDir(), "memtrace.db"), now)
}

// MustOpenPath opens (or reopens) the database at path and closes it when
// the test ends.
func MustOpenPath(tb testing.TB, path string, now func() time.Time) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), path, now)
	if err != nil {
		tb.Fatalf("open store %s: %v", path, err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Errorf("close store %s: %v", path, err)
		}
	})
	return db
}
