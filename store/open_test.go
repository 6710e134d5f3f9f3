package store_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

func TestOpen(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "m.db")
		db := storetest.MustOpenPath(t, path, newClock().Now)
		if db.Path() != path {
			t.Fatalf("Path() = %q, want %q", db.Path(), path)
		}
		m := newMemory("k1", "I prefer tea")
		must(t, db.InsertMemory(t.Context(), m, engine.Actor{Name: "test"}))
		must(t, db.Close())
		// Reopening runs no migration twice and keeps the data.
		db2 := storetest.MustOpenPath(t, path, newClock().Now)
		got, err := db2.GetMemory(t.Context(), m.ID)
		must(t, err)
		if got.Content != "I prefer tea" {
			t.Fatalf("content after reopen = %q", got.Content)
		}
	})
	t.Run("OddCharactersInPath", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "a?b#c%d 기억.db")
		db := storetest.MustOpenPath(t, path, nil)
		must(t, db.SetSetting(t.Context(), "k", "v"))
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("database not created at the literal path: %v", err)
		}
	})
	t.Run("ErrNotSQLite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "notes.txt")
		must(t, os.WriteFile(path, []byte("these are my notes, not a database\n"), 0o644))
		_, err := store.Open(t.Context(), path, nil)
		wantCode(t, err, engine.EINVALID)
		if want := path + " is not a memtrace database (not a SQLite file)"; err.Error() != want {
			t.Fatalf("error = %q, want %q", err, want)
		}
	})
	t.Run("ErrDirectory", func(t *testing.T) {
		dir := t.TempDir()
		_, err := store.Open(t.Context(), dir, nil)
		wantCode(t, err, engine.EINVALID)
	})
	t.Run("ErrMissingDirectory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "no", "such", "m.db")
		_, err := store.Open(t.Context(), path, nil)
		wantCode(t, err, engine.EINVALID)
		if !strings.Contains(err.Error(), "does not exist") {
			t.Fatalf("error = %q", err)
		}
	})
}
