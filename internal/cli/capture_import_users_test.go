package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// mem0HistoryFixture builds the held-out mem0 0.1.x history.db and returns
// it with its vector-store payloads.
func mem0HistoryFixture(t *testing.T) (history, payloads string) {
	t.Helper()
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(self), "..", "..", "testdata", "heldout", "import", "mem0_history")
	script, err := os.ReadFile(filepath.Join(dir, "history.sql"))
	if err != nil {
		t.Fatal(err)
	}
	history = filepath.Join(t.TempDir(), "history.db")
	db, err := sql.Open("sqlite3", history)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	return history, filepath.Join(dir, "vector_payloads.jsonl")
}

// countListed is how many memories `list` shows with args.
func countListed(t *testing.T, db string, args ...string) int {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"--db", db, "list"}, args...)...)
	if code != 0 {
		t.Fatalf("list %v: exit %d: %s", args, code, errOut)
	}
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, " active ") || strings.Contains(line, " quarantined ") {
			n++
		}
	}
	return n
}

// --users keeps mem0's users apart by scope (the default) or by database, or
// pools them; a mode it does not know is refused.
func TestImportMemoriesUsersModes(t *testing.T) {
	history, payloads := mem0HistoryFixture(t)
	dir := t.TempDir()

	scoped := filepath.Join(dir, "scoped.db")
	if _, errOut, code := runCLI(t, "--db", scoped, "import", "memories", history, "--payloads", payloads); code != 0 {
		t.Fatal(errOut)
	}
	if d, m := countListed(t, scoped, "--scope", "domain:user-dana"), countListed(t, scoped, "--scope", "domain:user-minho"); d != 3 || m != 2 {
		t.Fatalf("--users scope: dana %d, minho %d memories; want 3 and 2", d, m)
	}

	merged := filepath.Join(dir, "merged.db")
	if _, errOut, code := runCLI(t, "--db", merged, "import", "memories", history, "--payloads", payloads, "--users", "merge"); code != 0 {
		t.Fatal(errOut)
	}
	if n := countListed(t, merged, "--scope", "domain:user-dana"); n != 0 {
		t.Fatalf("--users merge: %d memories in dana's scope, want 0", n)
	}
	if n := countListed(t, merged, "--status", "active"); n != 5 {
		t.Fatalf("--users merge: %d active, want 5", n)
	}

	spaced := filepath.Join(dir, "spaced.db")
	out, errOut, code := runCLI(t, "--db", spaced, "import", "memories", history, "--payloads", payloads, "--users", "space")
	if code != 0 {
		t.Fatal(errOut)
	}
	for user, want := range map[string]int{"dana": 3, "minho": 2} {
		db := filepath.Join(dir, "spaced.user-"+user+".db")
		if n := countListed(t, db, "--status", "active"); n != want {
			t.Fatalf("--users space: %s's database has %d active, want %d\n%s", user, n, want, out)
		}
	}
	if n := countListed(t, spaced, "--status", "quarantined"); n != 3 {
		t.Fatalf("--users space: the deleted (ownerless) memories: %d in --db, want 3", n)
	}

	if _, errOut, code := runCLI(t, "--db", filepath.Join(dir, "x.db"), "import", "memories", history, "--users", "teams"); code == 0 || !strings.Contains(errOut, "scope, space or merge") {
		t.Fatalf("--users teams: exit %d, %s", code, errOut)
	}
}
