package cli

import (
	"crypto/sha256"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// Another program's SQLite file is refused and left byte for byte as it
// was, by every command; memtrace never adds its tables to it.
func TestForeignSQLiteFileIsRefusedUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other-app.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (12.5)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	sum := fileSum(t, path)
	for _, args := range [][]string{{"list"}, {"list", "--json"}, {"batches"}, {"recall", "사과"}, {"ingest", "-"}, {"clock"}} {
		code, _, errOut := runMemtrace(t, storable("z", 1), append([]string{"--db", path}, args...)...)
		if code == 0 || !strings.Contains(errOut, "not a memtrace database: "+path) || !strings.Contains(errOut, "invoices") {
			t.Errorf("%v on a foreign file = %d %q", args, code, errOut)
		}
		if fileSum(t, path) != sum {
			t.Fatalf("%v changed the foreign file", args)
		}
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("memtrace left %s beside the foreign file", path+suffix)
		}
	}
}

// A read-only command never writes: not on a database whose user_version
// says a newer schema (it was reset to 2), not on an ordinary one.
func TestReadOnlyCommandsLeaveTheFileAsItWas(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	if code, _, errOut := runMemtrace(t, storable("u", 2), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	// Fold the WAL into the file so the checksum sees everything.
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	sum := fileSum(t, db)
	for _, args := range [][]string{{"list", "--json"}, {"show", "key:u-1", "--json"}, {"batches", "--json"}, {"recall", "green tea", "--json"}, {"proposals"}} {
		if code, _, errOut := runMemtrace(t, "", append([]string{"--db", db}, args...)...); code != 0 {
			t.Fatalf("%v = %d %s", args, code, errOut)
		}
		if fileSum(t, db) != sum {
			t.Fatalf("%v wrote to the database file", args)
		}
	}

	raw, err = sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA user_version = 99; PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	sum = fileSum(t, db)
	code, _, errOut := runMemtrace(t, "", "--db", db, "list")
	if code == 0 || !strings.Contains(errOut, "schema 99") || !strings.Contains(errOut, "upgrade memtrace") {
		t.Fatalf("list on user_version 99 = %d %q", code, errOut)
	}
	if fileSum(t, db) != sum {
		t.Fatal("list on a user_version 99 database changed it")
	}
	raw, _ = sql.Open("sqlite3", db)
	defer raw.Close()
	var v int
	if err := raw.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != 99 {
		t.Fatalf("user_version = %d %v, want 99 kept", v, err)
	}
}

// Issue 32: a file memtrace does not recognise — an empty SQLite file whose
// user_version says schema 999, one with no tables, a zero-byte file — is
// left byte for byte as it was by every read-only command, before and at
// the version check (no migrations table, no switch to WAL, no -wal or
// -shm beside it), and the message says so truly.
func TestReadOnlyCommandsLeaveAnUnrecognisedFileAsItWas(t *testing.T) {
	cases := []struct {
		name, want string
		make       func(path string) error
	}{
		{"user_version 999", "schema 999", func(path string) error { return sqliteExec(path, `PRAGMA user_version = 999`) }},
		{"no tables", "holds no memtrace tables", func(path string) error { return sqliteExec(path, `CREATE TABLE scratch (a); DROP TABLE scratch`) }},
		{"zero bytes", "holds no memtrace tables", func(path string) error { return os.WriteFile(path, nil, 0o600) }},
	}
	commands := [][]string{{"list"}, {"list", "--json"}, {"show", "1"}, {"recall", "green tea"}, {"recall", "사과", "--json"},
		{"forecast"}, {"audit"}, {"batches"}, {"proposals"}, {"review", "list"}, {"compare", "green tea"}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "unknown.db")
			if err := c.make(path); err != nil {
				t.Fatal(err)
			}
			sum := fileSum(t, path)
			for _, args := range commands {
				code, _, errOut := runMemtrace(t, "", append([]string{"--db", path}, args...)...)
				if code == 0 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "left as it is") {
					t.Errorf("%v = %d %q, want a refusal saying %q and that the file was left as it is", args, code, errOut, c.want)
				}
				if fileSum(t, path) != sum {
					t.Fatalf("%v changed the file", args)
				}
				for _, suffix := range []string{"-wal", "-shm", "-journal"} {
					if _, err := os.Stat(path + suffix); err == nil {
						t.Fatalf("%v left %s beside the file", args, path+suffix)
					}
				}
			}
		})
	}
}

// sqliteExec runs statements on the SQLite file at path (creating it).
func sqliteExec(path, stmts string) error {
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	defer raw.Close()
	_, err = raw.Exec(stmts)
	return err
}
