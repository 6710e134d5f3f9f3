package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"memtrace/store"
	"memtrace/store/storetest"
)

// The demo golden set passes against its reviewed baseline with --db on
// PostgreSQL (its fixture built in a scratch space of that server, dropped
// afterwards), and bench locomo gives the same figures on PostgreSQL as on
// SQLite. CI runs this on its own server (.ci/postgres.sh).
func TestGoldenAndLoCoMoOnPostgres(t *testing.T) {
	base := storetest.PGBase(t)
	dsn := storetest.PGDSN(t) // a space of its own, so the server's other spaces do not matter
	before, err := store.ListSpaces(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "golden", "run", "--db", dsn, "testdata/golden/demo.yaml",
		"--baseline", "testdata/golden/demo.baseline.json", "--fail-on-regression")
	if code != 0 {
		t.Fatalf("golden run on PostgreSQL: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "no regression") {
		t.Fatalf("golden run on PostgreSQL:\n%s", out)
	}
	after, err := store.ListSpaces(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range after {
		if strings.HasPrefix(s.Space, "scratch_") && strings.HasSuffix(s.Space, "_fixture") && !containsSpace(before, s.Space) {
			t.Errorf("golden run left its scratch space %s behind", s.Space)
		}
	}

	locomo := locomoFile
	if _, err := os.Stat(locomo); err != nil {
		t.Logf("SKIP the LoCoMo half: data absent (%s)", locomo)
		return
	}
	var results [2]map[string]any
	for i, db := range []string{dsn, filepath.Join(t.TempDir(), "l.db")} {
		out, stderr, code := runCLI(t, "bench", "locomo", "--db", db, "--limit-conversations", "1", "--json", locomo)
		if code != 0 {
			t.Fatalf("bench locomo on %s: %s", db, stderr)
		}
		if err := json.Unmarshal([]byte(out), &results[i]); err != nil {
			t.Fatal(err)
		}
		delete(results[i], "seconds")
	}
	if !reflect.DeepEqual(results[0], results[1]) {
		t.Errorf("bench locomo differs between PostgreSQL and SQLite:\n%v\n%v", results[0], results[1])
	}
}

func containsSpace(ss []store.SpaceInfo, name string) bool {
	for _, s := range ss {
		if s.Space == name {
			return true
		}
	}
	return false
}
