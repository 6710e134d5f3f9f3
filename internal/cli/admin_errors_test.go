package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rawDriverWords are SQLite's own phrases, which a user must never read.
var rawDriverWords = []string{"malformed", "attempt to write", "constraint failed", "SQLITE", "sqlite3."}

func assertNoDriverText(t *testing.T, what, msg string) {
	t.Helper()
	for _, w := range rawDriverWords {
		if strings.Contains(msg, w) {
			t.Errorf("%s shows driver text %q: %s", what, w, msg)
		}
	}
}

// A damaged page range in the memories table: the command says the file
// is damaged and to restore the backup, not what the driver said.
func TestDamagedDatabaseSaysRestoreTheBackup(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	var in strings.Builder
	for i := range 400 {
		in.WriteString(strings.Replace(storable("d"+strings.Repeat("x", i%7), 1), `"id":"d`, `"id":"n`+string(rune('a'+i%26))+strings.Repeat("q", i/26)+`-d`, 1))
	}
	if code, _, errOut := runMemtrace(t, in.String(), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	var root int
	if err := raw.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'memories'`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	for p := root; p < root+4 && p*page <= len(b); p++ {
		off := (p - 1) * page
		for i := off; i < off+page && i < len(b); i++ {
			b[i] = 0xA5
		}
	}
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"list"}, {"recall", "green tea"}} {
		code, _, errOut := runMemtrace(t, "", append([]string{"--db", db}, args...)...)
		if code == 0 || !strings.Contains(errOut, "damaged") || !strings.Contains(errOut, "memtrace backup") {
			t.Errorf("%v on a damaged file = %d %q", args, code, errOut)
		}
		assertNoDriverText(t, strings.Join(args, " "), errOut)
	}
}

// Bad values are refused before the store, naming the field.
func TestAddRefusesBadValuesNamingTheField(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	for _, tc := range []struct{ flag, value, want string }{
		{"--importance", "NaN", "--importance NaN"},
		{"--importance", "-7", "--importance -7"},
		{"--importance", "1e308", "--importance 1e+308"},
		{"--kind", "thought", "kind"},
		{"--scope", "team:x", "--scope"},
		{"--type", "prefrence", `--type "prefrence": want one of preference,`},
	} {
		code, _, errOut := runMemtrace(t, "", "--db", db, "add", "--kind", "fact", "--type", "note", tc.flag, tc.value, "a fact to remember for the test")
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("add %s %s = %d %q, want the field named (%q)", tc.flag, tc.value, code, errOut, tc.want)
		}
		assertNoDriverText(t, "add "+tc.flag, errOut)
	}
}

// A database the process may not write: the message says read-only and
// what to check. Root writes through chmod, so there the test cannot fail
// and is skipped, saying so.
func TestReadOnlyDatabaseSaysSo(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("SKIPPED: running as root, which writes through chmod 444; the read-only mapping is covered by TestTxErrorMapsResultCodes in store")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	if code, _, errOut := runMemtrace(t, storable("ro", 1), "--db", db, "ingest", "-"); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	os.Chmod(db, 0o444)
	defer os.Chmod(db, 0o644)
	code, _, errOut := runMemtrace(t, "", "--db", db, "add", "--kind", "fact", "--type", "note", "another fact for the read-only test")
	if code == 0 || !(strings.Contains(errOut, "read-only") || strings.Contains(errOut, "permissions")) {
		t.Fatalf("add on a read-only file = %d %q", code, errOut)
	}
	assertNoDriverText(t, "add", errOut)
}
