package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/store"
)

// A libpq keyword/value DSN given as --db is refused, creates no file and
// is not echoed (#32): before, `add` created a file whose name held the
// password and printed it.
func TestKeywordDSNIsRefusedWithoutEchoingThePassword(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, dsn := range []string{
		"host=db.internal port=5432 dbname=memtrace user=agent password=hunter2-staging-9",
		"password=hunter2-staging-9",
		"dbname=memtrace sslmode=disable password=hunter2-staging-9",
	} {
		if !store.IsKeywordDSN(dsn) {
			t.Errorf("IsKeywordDSN(%q) = false", dsn)
		}
		_, err := store.Open(context.Background(), dsn, nil)
		if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "postgres://") {
			t.Errorf("Open(%q): err = %v", dsn, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files were created: %v", entries)
	}
	for _, path := range []string{"memtrace.db", filepath.Join(dir, "a=b.db"), "notes version=2.db", "/tmp/x.db"} {
		if store.IsKeywordDSN(path) {
			t.Errorf("IsKeywordDSN(%q) = true for a file path", path)
		}
	}
}
