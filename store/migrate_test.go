package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"memtrace/engine"
)

func appliedNames(t *testing.T, path string) []string {
	t.Helper()
	raw, err := sql.Open("sqlite3", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query(`SELECT name FROM migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	all := migrations()
	if len(all) < 2 {
		t.Fatalf("want at least two migrations, have %d", len(all))
	}
	// Numbers only increase; gaps are allowed (parallel branches are each
	// given a number, and land in any order).
	var allNames []string
	// Versions only have to increase: work on several branches takes its
	// numbers in advance, so a gap is harmless (migrate applies whatever is
	// not yet recorded), while two files with one number would be ambiguous.
	for i, m := range all {
		if i > 0 && m.Version <= all[i-1].Version {
			t.Fatalf("migration %s has version %d, not above %s's %d (numbers must increase)", m.Name, m.Version, all[i-1].Name, all[i-1].Version)
		}
		allNames = append(allNames, m.Name)
	}

	t.Run("Fresh", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "fresh.db")
		db, err := Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		var version int
		if err := db.reader.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
			t.Fatal(err)
		}
		var mode string
		if err := db.writer.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
			t.Fatal(err)
		}
		var fk, sync, busy int
		if err := db.writer.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if err := db.writer.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil {
			t.Fatal(err)
		}
		if err := db.writer.QueryRow(`PRAGMA busy_timeout`).Scan(&busy); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if got := appliedNames(t, path); !reflect.DeepEqual(got, allNames) {
			t.Fatalf("applied %v, want %v", got, allNames)
		}
		if version != all[len(all)-1].Version || mode != "wal" || fk != 1 || sync != 1 || busy < 5000 {
			t.Fatalf("user_version=%d journal=%s foreign_keys=%d synchronous=%d busy_timeout=%d", version, mode, fk, sync, busy)
		}
	})

	t.Run("UpgradeInPlace", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "v1.db")
		// A database as the first release left it: migration 0001 only.
		raw, err := sql.Open("sqlite3", dsn(path, true))
		if err != nil {
			t.Fatal(err)
		}
		if err := migrate(ctx, raw, all[:1]); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(`INSERT INTO memories (key, content, created_at, last_accessed_at, boost_at, seq)
			VALUES ('old-1', 'written by v1', '2025-01-01T00:00:00.000000000Z', '2025-01-01T00:00:00.000000000Z', '0001-01-01T00:00:00.000000000Z', 1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(`UPDATE counters SET value = 1 WHERE name = 'seq'`); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		if got := appliedNames(t, path); !reflect.DeepEqual(got, allNames[:1]) {
			t.Fatalf("v1 database has %v", got)
		}

		db, err := Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if got := appliedNames(t, path); !reflect.DeepEqual(got, allNames) {
			t.Fatalf("after upgrade applied %v, want %v", got, allNames)
		}
		m, err := db.GetMemoryByKey(ctx, "old-1")
		if err != nil {
			t.Fatal(err)
		}
		if m.Content != "written by v1" || !m.CreatedAt.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) || m.Seq != 1 {
			t.Fatalf("v1 memory after upgrade: %+v", m)
		}
		// Tables of the later migration work on the upgraded file.
		if err := db.SetSetting(ctx, "embedder", "hashed-256"); err != nil {
			t.Fatal(err)
		}
		// And the counter carries on from where v1 left it.
		n := &engine.Memory{Content: "written after the upgrade"}
		if err := db.InsertMemory(ctx, n, engine.Actor{Name: "test"}); err != nil {
			t.Fatal(err)
		}
		if n.Seq != 2 {
			t.Fatalf("seq after upgrade = %d, want 2", n.Seq)
		}
	})

	t.Run("ErrNewerSchema", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "future.db")
		db, err := Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.writer.Exec(`INSERT INTO migrations (name) VALUES ('0099_from_the_future.sql')`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		_, err = Open(ctx, path, nil)
		if engine.ErrorCode(err) != engine.EINVALID {
			t.Fatalf("open newer schema: %v", err)
		}
		want := fmt.Sprintf("this database was written by a newer memtrace (schema 99 > %d); upgrade memtrace — the file was left as it is", all[len(all)-1].Version)
		if err.Error() != want {
			t.Fatalf("error = %q, want %q", err, want)
		}
	})
}
