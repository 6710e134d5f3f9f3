package importer_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"go.yaml.in/yaml/v3"

	"memtrace/capture"
	"memtrace/engine"
	"memtrace/internal/testdata/enginetest"
)

// The held-out import fixtures (testdata/heldout/import, see
// testdata/heldout/README.md) were written from each format's documentation
// by someone who had not read the importers. They are never edited; these
// tests build the SQLite files from the .sql fixtures, import them the way
// `import memories` does, and check expect.yaml. Each family counts the
// checks that pass and holds a ratchet floor at the figure reached so far:
// raise the floor when a fix lifts it, never lower it.

const heldoutImport = "../testdata/heldout/import"

var heldoutNow = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// tally counts a family's checks; failures are logged, not fatal, so the
// pass rate is measured whole.
type tally struct {
	t            *testing.T
	pass, checks int
}

func (c *tally) check(ok bool, format string, args ...any) {
	c.t.Helper()
	c.checks++
	if ok {
		c.pass++
		return
	}
	c.t.Logf("FAIL "+format, args...)
}

// ratchet reports the pass rate and fails below floor.
func (c *tally) ratchet(family string, floor int) {
	c.t.Helper()
	c.t.Logf("%s: %d of %d checks pass (floor %d)", family, c.pass, c.checks, floor)
	if c.pass < floor {
		c.t.Errorf("%s: %d of %d checks pass, below the floor of %d", family, c.pass, c.checks, floor)
	}
}

var fts5Table = regexp.MustCompile(`CREATE VIRTUAL TABLE (\w+) USING fts5\([^)]*\)`)

// buildSQLite runs a fixture's SQL script into a new SQLite file.
func buildSQLite(t *testing.T, script, name string) string {
	t.Helper()
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	text := string(b)
	if _, err := db.Exec(text); err != nil && strings.Contains(err.Error(), "no such module: fts5") {
		// The go-sqlite3 driver is built without FTS5 here. Chroma's
		// full-text index only repeats the documents kept under
		// chroma:document, which is what the importer reads; the test keeps
		// the table as a plain one, loudly.
		t.Logf("NOTE %s: this SQLite has no FTS5; embedding_fulltext_search is built as a plain table", script)
		text = fts5Table.ReplaceAllString(text, "CREATE TABLE $1 (string_value)")
		db.Close()
		_ = os.Remove(path)
		if db, err = sql.Open("sqlite3", path); err != nil {
			t.Fatal(err)
		}
		_, err = db.Exec(text)
		if err != nil {
			t.Fatalf("build %s from %s: %v", name, script, err)
		}
	} else if err != nil {
		t.Fatalf("build %s from %s: %v", name, script, err)
	}
	return path
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// imported is one database after an import: every memory with where it
// came from.
type imported struct {
	e      *engine.Engine
	dbPath string
	all    []engine.Memory
	meta   map[int64]map[string]any
	rep    *capture.MemoryImportReport
}

// importInto imports the records of source kind at path into the engine,
// with the reader options of the test.
func importInto(t *testing.T, e *engine.Engine, kind, path string, o heldoutReadOptions) *capture.MemoryImportReport {
	t.Helper()
	recs, problems, err := readHeldout(kind, path, o)
	if err != nil {
		t.Logf("FAIL read %s %s: %v", kind, path, err)
		return &capture.MemoryImportReport{}
	}
	rep, err := capture.ImportMemories(context.Background(), e, capture.MemoryImportOptions{Source: kind, Path: path}, recs, problems)
	if err != nil {
		t.Logf("FAIL import %s %s: %v", kind, path, err)
		return &capture.MemoryImportReport{}
	}
	for _, p := range rep.Problems {
		t.Logf("problem %s: %s", p.Position, p.Error)
	}
	return rep
}

func openImported(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memtrace.db")
	e, _ := enginetest.Open(t, path, heldoutNow)
	return e, path
}

func snapshot(t *testing.T, e *engine.Engine, dbPath string, rep *capture.MemoryImportReport) *imported {
	t.Helper()
	im := &imported{e: e, dbPath: dbPath, meta: map[int64]map[string]any{}, rep: rep}
	e.EachMemory(func(m *engine.Memory) bool {
		c := *m
		c.Embedding = nil
		im.all = append(im.all, c)
		return true
	})
	for _, m := range im.all {
		src, err := e.Store().GetMemorySource(context.Background(), m.ID)
		if err != nil {
			continue
		}
		var md map[string]any
		_ = json.Unmarshal(src.Metadata, &md)
		im.meta[m.ID] = md
	}
	return im
}

func (im *imported) byKey(key string) (engine.Memory, bool) {
	for _, m := range im.all {
		if m.Key == key {
			return m, true
		}
	}
	return engine.Memory{}, false
}

// activeWith lists the active memories whose text holds s, case-insensitively.
func (im *imported) activeWith(s string) []engine.Memory {
	var out []engine.Memory
	for _, m := range im.all {
		if m.Status == engine.StatusActive && strings.Contains(strings.ToLower(m.Content), strings.ToLower(s)) {
			out = append(out, m)
		}
	}
	return out
}

func (im *imported) anyWith(s string) bool {
	for _, m := range im.all {
		if strings.Contains(strings.ToLower(m.Content), strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// inFiles reports whether s occurs in the bytes of the database file (and
// its WAL): "anywhere in the imported store".
func (im *imported) inFiles(t *testing.T, s string) bool {
	t.Helper()
	for _, p := range []string{im.dbPath, im.dbPath + "-wal"} {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), s) {
			return true
		}
	}
	return false
}

// ownerOf is the user a memory belongs to: the user scope the import gave
// it ("" when none).
func ownerOf(m engine.Memory) string {
	owner, _ := strings.CutPrefix(m.Scope, "domain:user-")
	if owner == m.Scope {
		return ""
	}
	return owner
}

func sameTime(got time.Time, want string) bool {
	w, err := time.Parse(time.RFC3339Nano, want)
	return err == nil && got.Equal(w)
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func fmtList(v any) string { return fmt.Sprintf("%v", v) }
