package cli

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"memtrace/engine"
)

// The commands that take the judge flags (ingest, import, review retry,
// mcp) open the engine with the database's recorded policy, every key of
// it; --detail, when given, replaces capture.detail alone. (They used to
// pass a Config holding only Detail, which made the engine skip the
// recorded policy: an MCP agent recalled with the default k while `memtrace
// recall` used the recorded one.)
func TestJudgedOpenKeepsTheRecordedPolicy(t *testing.T) {
	db := demoDB(t)
	pol := writePolicy(t, "capture:\n  detail: low\nrecall:\n  k: 2\n")
	if _, stderr, code := runCLI(t, "--db", db, "policy", "set", pol); code != 0 {
		t.Fatalf("policy set: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		args   []string
		detail string
	}{
		{nil, engine.DetailLow},
		{[]string{"--detail", "high"}, engine.DetailHigh},
	} {
		fs := newFlagSet("ingest")
		jf := addJudgeFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, dbPath: db}
		eng, closeEngine, err := openJudgedEngine(e, jf, true)
		if err != nil {
			t.Fatal(err)
		}
		cfg := eng.Config()
		closeEngine()
		if cfg.K != 2 || cfg.Detail != tc.detail {
			t.Errorf("%v: engine opened with k %d, detail %q; want the recorded k 2 and detail %q", tc.args, cfg.K, cfg.Detail, tc.detail)
		}
	}
}

// End to end: the recorded capture.detail decides what an ingest keeps, as
// `policy set` says ("capture-time keys apply to new captures").
func TestIngestCapturesUnderTheRecordedDetail(t *testing.T) {
	stored := map[string]int{}
	for _, detail := range []string{"low", "high"} {
		db := filepath.Join(t.TempDir(), "m.db")
		mustRunCLI(t, "--db", db, "add", "a first memory, so that the database exists")
		mustRunCLI(t, "--db", db, "policy", "set", writePolicy(t, "capture:\n  detail: "+detail+"\n"))
		var st struct {
			Stored int `json:"stored"`
		}
		if err := json.Unmarshal([]byte(mustRunCLI(t, "--db", db, "ingest", "testdata/demo.jsonl", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		stored[detail] = st.Stored
	}
	if stored["low"] >= stored["high"] {
		t.Errorf("ingest stored %d messages under a recorded detail low and %d under high; low is the stricter", stored["low"], stored["high"])
	}
}

// A flag only a judge reads, given without --judge, is refused with what to
// do instead of being dropped in silence.
func TestJudgeOnlyFlagsWithoutJudge(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	for _, args := range [][]string{
		{"ingest", "testdata/demo.jsonl", "--judge-cache", filepath.Join(t.TempDir(), "c.jsonl")},
		{"import", "jsonl", "testdata/demo.jsonl", "--judge-timeout", "5s"},
	} {
		_, stderr, code := runCLI(t, append([]string{"--db", db}, args...)...)
		if code != 2 || !strings.Contains(stderr, "goes with --judge MODEL") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	if ok, _ := databaseExists(db); ok {
		t.Errorf("a refused ingest left a database at %s", db)
	}
}
