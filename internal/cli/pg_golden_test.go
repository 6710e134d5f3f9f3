package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"memtrace/internal/testdata/locomotest"
	"memtrace/internal/testdata/storetest"
	"memtrace/store"
)

// Every golden set of the project (testdata/golden/*.yaml) passes against
// its reviewed baseline with --db on PostgreSQL (its fixture built in a
// scratch space of that server, dropped afterwards) and gives the same
// result, probe by probe, as on SQLite; and bench locomo gives the same
// figures on both. CI runs this on its own server (.ci/postgres.sh).
func TestGoldenAndLoCoMoOnPostgres(t *testing.T) {
	base := storetest.PGBase(t)
	dsn := storetest.PGDSN(t) // a space of its own, so the server's other spaces do not matter
	before, err := store.ListSpaces(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := filepath.Glob("testdata/golden/*.yaml")
	if err != nil || len(sets) == 0 {
		t.Fatalf("no golden sets under testdata/golden (%v)", err)
	}
	for _, set := range sets {
		args := []string{"golden", "run", set}
		if baseline := strings.TrimSuffix(set, ".yaml") + ".baseline.json"; fileExists(baseline) {
			args = append(args, "--baseline", baseline, "--fail-on-regression")
		}
		var runs [2]map[string]any
		for i, db := range []string{dsn, filepath.Join(t.TempDir(), "g.db")} {
			out, stderr, code := runCLI(t, append(args, "--db", db, "--json")...)
			if code != 0 {
				t.Fatalf("golden run %s on %s: exit %d\n%s%s", set, db, code, out, stderr)
			}
			if err := json.Unmarshal([]byte(out), &runs[i]); err != nil {
				t.Fatalf("golden run %s: %v", set, err)
			}
			if runs[i]["regressed"] == true {
				t.Fatalf("golden run %s on %s regressed against its baseline", set, db)
			}
		}
		if !reflect.DeepEqual(runs[0], runs[1]) {
			for i, p := range runs[0]["probes"].([]any) {
				if q := runs[1]["probes"].([]any)[i]; !reflect.DeepEqual(p, q) {
					t.Errorf("golden run %s: probe %d differs between PostgreSQL and SQLite:\n%v\n%v", set, i, p, q)
				}
			}
			t.Fatalf("golden run %s differs between PostgreSQL and SQLite:\n%v\n%v", set, runs[0]["summary"], runs[1]["summary"])
		}
		t.Logf("golden set %s: the same %v on PostgreSQL as on SQLite", set, runs[0]["summary"])
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
	if !locomotest.Present(t, locomo, "the LoCoMo half of the PostgreSQL golden run") {
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

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func containsSpace(ss []store.SpaceInfo, name string) bool {
	for _, s := range ss {
		if s.Space == name {
			return true
		}
	}
	return false
}
